#pragma once
#include <pango/pangocairo.h>

// PANGO_SCALE is a macro Swift imports as an Int32 constant; the unref is a GObject call that
// Swift would need a cast for.
static inline void signpad_pango_unref(void *object) { g_object_unref(object); }
