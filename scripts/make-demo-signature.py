#!/usr/bin/env python3
"""Writes demo/signature.evemu: a made-up signature on a made-up multitouch panel, in the text
format evemu-record writes, so `signpad demo` has something to replay on any machine."""
import math

MAX = 4095
frames = []  # (time, [(type, code, value)])


def stroke(points, t0, tracking_id, rate=0.008):
    t = t0
    for i, (x, y) in enumerate(points):
        ev = []
        if i == 0:
            ev += [(3, 0x2F, 0), (3, 0x39, tracking_id)]
        ev += [(3, 0x35, round(x * MAX)), (3, 0x36, round(y * MAX))]
        if i == 0:
            ev += [(1, 0x14A, 1)]
        ev += [(3, 0x00, round(x * MAX)), (3, 0x01, round(y * MAX))]
        frames.append((t, ev))
        t += rate
    frames.append((t, [(3, 0x39, -1), (1, 0x14A, 0)]))
    return t + 0.25


def loops(x0, x1, y, n=4, size=0.09, steps=260):
    pts = []
    for i in range(steps):
        s = i / (steps - 1)
        a = s * n * 2 * math.pi
        x = x0 + (x1 - x0) * s - 0.025 * math.sin(a)
        yy = y - size * (0.5 - 0.5 * math.cos(a)) * (1 - 0.5 * s)
        pts.append((x, yy))
    return pts


def wave(x0, x1, y, amp=0.05, steps=160):
    return [(x0 + (x1 - x0) * i / (steps - 1), y - amp * math.sin(3 * math.pi * i / (steps - 1)) * (i / (steps - 1))) for i in range(steps)]


t = 1.0
# A tall first letter, then loops, a wave, a dot over it, and an underline.
t = stroke([(0.20 + 0.02 * math.sin(i / 30), 0.30 + 0.32 * i / 79) for i in range(80)], t, 1)
t = stroke(loops(0.22, 0.55, 0.62), t, 2)
t = stroke(wave(0.57, 0.80, 0.60), t, 3)
t = stroke([(0.66, 0.40)], t, 4)
t = stroke([(0.18 + 0.65 * i / 89, 0.68 + 0.01 * math.sin(i / 9)) for i in range(90)], t, 5, rate=0.006)

header = """# EVEMU 1.3
# Made-up device and signature for `signpad demo` (scripts/make-demo-signature.py)
N: signpad demo touchscreen
I: 0003 0000 0000 0001
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 04 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 02 00 00 00 00 00 00 00 00
B: 03 03 00 00 00 00 80 60 02
B: 04 00 00 00 00 00 00 00 00
B: 05 00 00 00 00 00 00 00 00
B: 11 00 00 00 00 00 00 00 00
B: 12 00 00 00 00 00 00 00 00
B: 14 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
A: 00 0 4095 0 0 0
A: 01 0 4095 0 0 0
A: 2f 0 9 0 0 0
A: 35 0 4095 0 0 0
A: 36 0 4095 0 0 0
A: 39 0 65535 0 0 0
"""
with open("demo/signature.evemu", "w") as f:
    f.write(header)
    for time, events in frames:
        sec, usec = int(time), round((time - int(time)) * 1e6)
        if usec == 1000000:
            sec, usec = sec + 1, 0
        for typ, code, value in events + [(0, 0, 0)]:
            f.write(f"E: {sec}.{usec:06d} {typ:04x} {code:04x} {value}\n")
