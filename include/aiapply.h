/* libaiapply: the public API of git ai-apply. */
#ifndef AIAPPLY_H
#define AIAPPLY_H

#include "aiapply/common.h"
#include "change/changeset.h"
#include "edit/text.h"
#include "change/path.h"
#include "edit/edit.h"
#include "format/format.h"

#endif
