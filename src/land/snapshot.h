/* The planner's snapshot over a lander's base (snapshot.c). */
#ifndef AA_LAND_SNAPSHOT_H
#define AA_LAND_SNAPSHOT_H

#include "land/session.h"

/* Fills s->snap for the session's base (index or tree). */
void aa_snapshot_bind(aa_session *s);

#endif
