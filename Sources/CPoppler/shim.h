#pragma once
#include <poppler.h>
#include <cairo.h>
#include <sys/resource.h>

/// g_object_unref, g_bytes and g_error through functions Swift imports as they are.
static inline void signpad_unref(void *object) { if (object != NULL) g_object_unref(object); }

/// The document from `count` bytes, or NULL with why in `reason` (at most `size` bytes).
static inline PopplerDocument *signpad_poppler_open(const void *data, size_t count, char *reason, size_t size) {
    GBytes *bytes = g_bytes_new(data, count);
    GError *error = NULL;
    PopplerDocument *document = poppler_document_new_from_bytes(bytes, NULL, &error);
    g_bytes_unref(bytes);
    if (document == NULL) {
        snprintf(reason, size, "%s", error != NULL ? error->message : "poppler gave no reason");
        if (error != NULL) g_error_free(error);
    }
    return document;
}
