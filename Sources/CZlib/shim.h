#pragma once
#include <zlib.h>

/// deflateInit is a macro that passes zlib's version and the stream's size.
static inline int signpad_deflate_init(z_stream *stream, int level) { return deflateInit(stream, level); }

/// inflateInit is a macro too.
static inline int signpad_inflate_init(z_stream *stream) { return inflateInit(stream); }
