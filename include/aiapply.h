/* libaiapply: the public API of git ai-apply. */
#ifndef AIAPPLY_H
#define AIAPPLY_H

#include "aiapply/common.h"
#include "aiapply/changeset.h"
#include "aiapply/text.h"
#include "aiapply/path.h"
#include "aiapply/edit.h"
#include "aiapply/format.h"

#endif
