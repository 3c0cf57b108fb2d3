// What Swift cannot import from libdrm and the kernel headers: ioctl request macros for
// dumb buffers and the VT's graphics mode.
#pragma once
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

static inline int signpad_drm_create_dumb(int fd, uint32_t width, uint32_t height,
                                          uint32_t *handle, uint32_t *pitch, uint64_t *size) {
    struct drm_mode_create_dumb request;
    memset(&request, 0, sizeof request);
    request.width = width;
    request.height = height;
    request.bpp = 32;
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &request) < 0) return -errno;
    *handle = request.handle;
    *pitch = request.pitch;
    *size = request.size;
    return 0;
}

static inline int signpad_drm_map_dumb(int fd, uint32_t handle, uint64_t *offset) {
    struct drm_mode_map_dumb request;
    memset(&request, 0, sizeof request);
    request.handle = handle;
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &request) < 0) return -errno;
    *offset = request.offset;
    return 0;
}

static inline int signpad_drm_destroy_dumb(int fd, uint32_t handle) {
    struct drm_mode_destroy_dumb request;
    memset(&request, 0, sizeof request);
    request.handle = handle;
    if (drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &request) < 0) return -errno;
    return 0;
}

static inline uint32_t signpad_drm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }

static inline int signpad_vt_set_graphics(int fd, int graphics) {
    return ioctl(fd, KDSETMODE, graphics ? KD_GRAPHICS : KD_TEXT);
}
