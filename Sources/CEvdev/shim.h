// What Swift cannot import from <linux/input.h>: ioctl request macros and the
// input_event_sec/usec accessor macros.
#pragma once
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <time.h>

static inline int signpad_evdev_grab(int fd, int grab) {
    return ioctl(fd, EVIOCGRAB, (void *)(long)grab);
}

static inline int signpad_evdev_set_monotonic_clock(int fd) {
    int clock = CLOCK_MONOTONIC;
    return ioctl(fd, EVIOCSCLOCKID, &clock);
}

static inline long long signpad_input_event_sec(const struct input_event *event) {
    return (long long)event->input_event_sec;
}

static inline long long signpad_input_event_usec(const struct input_event *event) {
    return (long long)event->input_event_usec;
}

static inline struct input_event signpad_input_event_make(long long sec, long long usec,
                                                          unsigned short type, unsigned short code, int value) {
    struct input_event event = {0};
    event.input_event_sec = sec;
    event.input_event_usec = usec;
    event.type = type;
    event.code = code;
    event.value = value;
    return event;
}
