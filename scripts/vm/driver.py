#!/usr/bin/env python3
"""Host side of the kiosk VM test: boots the VM, answers the guest's requests on the serial
console (screendumps over QMP, pointer input over QMP), collects the exports and the daemon's
log, and checks them against the offscreen rendering of the same input by `signpad replay`."""
import argparse, base64, hashlib, json, math, os, re, socket, struct, subprocess, sys, time, zlib

# The panel's size: vm-e2e's (SIGNPAD_VM_SIZE).
W, H = (int(v) for v in os.environ.get('SIGNPAD_VM_SIZE', '1024x768').split('x'))


def signpad_binary():
    """The signpad the VM runs (vm-e2e exports it as SIGNPAD): the package's build."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    return os.environ.get('SIGNPAD') or os.path.join(root, '.build-static', 'release', 'signpad')


def signpad_layout(w, h, request_rows=None):
    """Where signpad puts the screen's parts at w x h (`signpad layout --json`), each
    (minX, minY, maxX, maxY), with the default configuration's buttons."""
    args = [signpad_binary(), 'layout', '--screen', f'{w}x{h}', '--json']
    if request_rows is not None:
        args += ['--request-rows', str(request_rows)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return {k: tuple(v) if isinstance(v, list) else v for k, v in json.loads(out).items()}


def layout(w, h):
    """The box, Clear and Done."""
    parts = signpad_layout(w, h)
    return parts['box'], parts['clear'], parts['done']


def request_lines(w, h, rows):
    """Where a request's rows of text go, under its title."""
    return signpad_layout(w, h, rows)['lines']


def layout_message(w, h):
    return signpad_layout(w, h)['message']


# A panel that reads off by this matrix (libinput's a b c d e f): `signpad calibrate` must find it.
CALIBRATION_TRUTH = (1.08, 0.03, -0.06, -0.02, 0.94, 0.035)
CALIBRATION_TARGETS = [(0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9), (0.5, 0.5)]  # Calibrator.targets


def evemu_event(t, typ, code, value):
    """One event line of an evemu recording."""
    return f"E: {t:.6f} {typ:04x} {code:04x} {value}\n"


def evemu_header(path):
    """The lines of an evemu recording that describe its device."""
    return [l for l in open(path) if not l.startswith('E:')]


def evemu_events(path):
    """The events of an evemu recording as (time, type, code, value)."""
    for line in open(path):
        if line.startswith('E:'):
            _, t, typ, code, value = line.split()[:5]
            yield float(t), int(typ, 16), int(code, 16), int(value)


def calibration_taps(header_path, out_path):
    """Five still taps, 2 s apart, where the skewed panel reports the calibration targets."""
    a, b, c, d, e, f = CALIBRATION_TRUTH
    det = a * e - b * d
    header = evemu_header(header_path)
    with open(out_path, 'w') as out:
        out.writelines(header)
        for i, (sx, sy) in enumerate(CALIBRATION_TARGETS):
            # The device position n with truth(n) = target, in device units (0…4095 over 4096 steps).
            nx, ny = (e * (sx - c) - b * (sy - f)) / det, (a * (sy - f) - d * (sx - c)) / det
            x, y = round(nx * 4096), round(ny * 4096)
            t = 1.0 + 2 * i
            frames = [(t, [(3, 0x2f, 0), (3, 0x39, 100 + i), (3, 0x35, x), (3, 0x36, y), (1, 0x14a, 1), (3, 0, x), (3, 1, y)]),
                      (t + 0.05, [(3, 0x35, x + 1), (3, 0, x + 1)]),
                      (t + 0.10, [(3, 0x35, x), (3, 0, x)]),
                      (t + 0.15, [(3, 0x39, -1), (1, 0x14a, 0)])]
            for when, events in frames:
                for typ, code, value in events + [(0, 0, 0)]:
                    out.write(evemu_event(when, typ, code, value))


def pen_header(comment, name, product, abs_bits, axes):
    """An evemu header of a pen (BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOUCH, BTN_STYLUS; direct) with
    the EV_ABS bitmask bytes `abs_bits` and the A: lines of `axes`, (code, min, max) each."""
    return f"""# EVEMU 1.3
# {comment} (scripts/vm/driver.py)
N: {name}
I: 0003 0000 0000 {product:04x}
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
""" + "B: 01 00 00 00 00 00 00 00 00\n" * 5 + "B: 01 03 0c 00 00 00 00 00 00\n" + "B: 01 00 00 00 00 00 00 00 00\n" * 6 + \
        f"B: 02 00 00 00 00 00 00 00 00\nB: 03 {abs_bits}\n" + \
        "".join(f"B: {t:02x} 00 00 00 00 00 00 00 00\n" for t in (4, 5, 0x11, 0x12, 0x14, 0x15, 0x15)) + \
        "".join(f"A: {code:02x} {lo} {hi} 0 0 0\n" for code, lo, hi in axes)


PEN_HEADER = pen_header("A pen beside the demo touchscreen, as a panel's digitiser is a second device", "signpad demo pen", 2,
                        "03 00 00 01 00 00 00 00", [(0, 0, 4095), (1, 0, 4095), (0x18, 0, 1023)])


def pen_files(touch_path, out_dir):
    """The demo signature as a pen draws it (same positions and times: the same ink as the
    touchscreen's), preceded by a hover frame and followed by the pen leaving; the two frames of
    a pen that comes near and one that goes away, on their own; the pen's eraser end touching the
    signature's first stroke, and the signature with that erasure (for signpad replay)."""
    event = evemu_event
    frames, current = [], []
    for t, typ, code, value in evemu_events(touch_path):
        if typ == 0:
            frames.append((t, current))
            current = []
        elif (typ, code) in ((1, 0x14a), (3, 0), (3, 1)):
            current.append((typ, code, value))
    first, last = frames[0][0], frames[-1][0]
    x, y = next(v for _, c, v in frames[0][1] if c == 0), next(v for _, c, v in frames[0][1] if c == 1)
    near = [event(first - 0.1, 1, 0x140, 1), event(first - 0.1, 3, 0, x), event(first - 0.1, 3, 1, y), event(first - 0.1, 0, 0, 0)]
    away = [event(last + 0.1, 1, 0x140, 0), event(last + 0.1, 0, 0, 0)]
    with open(os.path.join(out_dir, 'pen-signature.evemu'), 'w') as out:
        out.write(PEN_HEADER)
        out.writelines(near)
        for t, events in frames:
            for typ, code, value in events:
                out.write(event(t, typ, code, value))
                if (typ, code) == (1, 0x14a):
                    out.write(event(t, 3, 0x18, 600 if value else 0))
            out.write(event(t, 0, 0, 0))
        out.writelines(away)
    # The hand: the touchscreen's first stroke, its first 30 frames, without the lift; and the lift.
    header = evemu_header(touch_path)
    first_stroke = [l for l in open(touch_path) if l.startswith('E:')]
    frame_ends = [i for i, l in enumerate(first_stroke) if l.split()[2:5] == ['0000', '0000', '0']]
    with open(os.path.join(out_dir, 'palm-down.evemu'), 'w') as out:
        out.writelines(header + first_stroke[:frame_ends[29] + 1])
    lift_at = float(first_stroke[frame_ends[29]].split()[1]) + 0.5
    with open(os.path.join(out_dir, 'palm-up.evemu'), 'w') as out:
        out.writelines(header + [event(lift_at, 3, 0x2f, 0), event(lift_at, 3, 0x39, -1), event(lift_at, 1, 0x14a, 0), event(lift_at, 0, 0, 0)])
    # The eraser end: near at the first stroke's start, touching there, 5 px along, lifting, away.
    t = last + 1
    eraser = [event(t, 1, 0x141, 1), event(t, 3, 0, x), event(t, 3, 1, y), event(t, 0, 0, 0),
              event(t + 0.05, 1, 0x14a, 1), event(t + 0.05, 3, 0x18, 600), event(t + 0.05, 0, 0, 0),
              event(t + 0.10, 3, 0, x + 20), event(t + 0.10, 3, 1, y + 20), event(t + 0.10, 0, 0, 0),
              event(t + 0.15, 1, 0x14a, 0), event(t + 0.15, 3, 0x18, 0), event(t + 0.15, 0, 0, 0),
              event(t + 0.20, 1, 0x141, 0), event(t + 0.20, 0, 0, 0)]
    with open(os.path.join(out_dir, 'pen-eraser.evemu'), 'w') as out:
        out.write(PEN_HEADER)
        out.writelines(eraser)
    with open(os.path.join(out_dir, 'pen-signature.evemu')) as signed, open(os.path.join(out_dir, 'pen-signature-erased.evemu'), 'w') as out:
        out.write(signed.read())
        out.writelines(eraser)
    # A hand holds the pen above the glass: it drifts around a circle of 4 px for 7 s (a held pen
    # never stays within 2 px for long: the Wacom recording's hover, 0.11 s at most).
    hover = []
    for k in range(140):
        t = k * 0.05
        hover += [event(t, 3, 0, x + round(16 * math.cos(k / 5))), event(t, 3, 1, y + round(16 * math.sin(k / 5))), event(t, 0, 0, 0)]
    # A customer pauses with the pen raised, thinking: it comes near and wanders over the box,
    # 50 px around, for 6 s, then lies where it stopped, still near the glass.
    pause = [event(0, 1, 0x140, 1), event(0, 3, 0, x), event(0, 3, 1, y), event(0, 0, 0, 0)]
    for k in range(1, 121):
        t = k * 0.05
        pause += [event(t, 3, 0, x + round(200 * math.sin(k / 10))), event(t, 3, 1, y + round(260 * (1 - math.cos(k / 10)))), event(t, 0, 0, 0)]
    for name, lines in (('pen-near', near), ('pen-away', away), ('pen-hover', hover), ('pen-pause', pause)):
        with open(os.path.join(out_dir, name + '.evemu'), 'w') as out:
            out.write(PEN_HEADER)
            out.writelines(lines)


def water_files(touch_path, out_dir):
    """A drop of water on the glass: a contact in slot 0 that lands in the box, away from the
    signature, and stays (water-down), and its lift (water-up); and the demo signature signed by a
    finger in slot 1 meanwhile, without the single-touch emulation the drop holds."""
    event = evemu_event
    header = evemu_header(touch_path)

    def second_finger(path):
        return [event(t, typ, code, 1 if (typ, code) == (3, 0x2f) else value)
                for t, typ, code, value in evemu_events(path) if not (typ == 1 or (typ == 3 and code < 2))]
    second = second_finger(touch_path)
    with open(os.path.join(out_dir, 'water-down.evemu'), 'w') as out:
        out.writelines(header + [event(1, 3, 0x2f, 0), event(1, 3, 0x39, 500), event(1, 3, 0x35, 3800), event(1, 3, 0x36, 3050),
                                 event(1, 1, 0x14a, 1), event(1, 3, 0, 3800), event(1, 3, 1, 3050), event(1, 0, 0, 0)])
    with open(os.path.join(out_dir, 'water-up.evemu'), 'w') as out:
        out.writelines(header + [event(1, 3, 0x2f, 0), event(1, 3, 0x39, -1), event(1, 1, 0x14a, 0), event(1, 0, 0, 0)])
    with open(os.path.join(out_dir, 'signature-second-finger.evemu'), 'w') as out:
        out.writelines(header + second)
    # A tap on Done by a finger in slot 1 beside the drop (from scripts/vm-e2e's tap-done.evemu).
    with open(os.path.join(out_dir, 'tap-done-second-finger.evemu'), 'w') as out:
        out.writelines(header + second_finger(os.path.join(out_dir, 'tap-done.evemu')))
    # Water that makes and breaks contact where the drop lands: 20 contacts of 0.05 s, one every
    # 0.4 s, wandering 2 px.
    flicker = []
    for k in range(20):
        t = 0.4 * k
        flicker += [event(t, 3, 0x2f, 0), event(t, 3, 0x39, 600 + k), event(t, 3, 0x35, 3800 + 8 * (k % 2)), event(t, 3, 0x36, 3050),
                    event(t, 1, 0x14a, 1), event(t, 3, 0, 3800 + 8 * (k % 2)), event(t, 3, 1, 3050), event(t, 0, 0, 0),
                    event(t + 0.05, 3, 0x39, -1), event(t + 0.05, 1, 0x14a, 0), event(t + 0.05, 0, 0, 0)]
    with open(os.path.join(out_dir, 'water-flicker.evemu'), 'w') as out:
        out.writelines(header + flicker)
    # A contact that lands 38 px above that place and stays 6 s, its position jittering 2 px every 0.05 s.
    jitter = [event(0, 3, 0x2f, 0), event(0, 3, 0x39, 700), event(0, 3, 0x35, 3800), event(0, 3, 0x36, 2850),
              event(0, 1, 0x14a, 1), event(0, 3, 0, 3800), event(0, 3, 1, 2850), event(0, 0, 0, 0)]
    for k in range(1, 121):
        t, dx, dy = 0.05 * k, 8 * (k % 3 - 1), 8 * (k % 2)
        jitter += [event(t, 3, 0x35, 3800 + dx), event(t, 3, 0x36, 2850 + dy), event(t, 3, 0, 3800 + dx), event(t, 3, 1, 2850 + dy), event(t, 0, 0, 0)]
    jitter += [event(6.05, 3, 0x39, -1), event(6.05, 1, 0x14a, 0), event(6.05, 0, 0, 0)]
    with open(os.path.join(out_dir, 'water-jitter.evemu'), 'w') as out:
        out.writelines(header + jitter)


# A pen whose descriptor has only the multitouch axes, no ABS_X/ABS_Y (a driver's mistake, or a
# faulty device): signpad reads a pen through ABS_X/ABS_Y, so it must skip it, not fail on it.
FAULTY_PEN_HEADER = pen_header("A pen with only multitouch axes", "signpad faulty pen", 3, "00 00 00 00 00 80 60 02",
                               [(0x2f, 0, 9), (0x35, 0, 4095), (0x36, 0, 4095), (0x39, 0, 65535)])


def faulty_files(out_dir):
    """The faulty pen's device, for evemu-device."""
    with open(os.path.join(out_dir, 'faulty-pen.evemu'), 'w') as out:
        out.write(FAULTY_PEN_HEADER)


def read_png(path):
    d = open(path, 'rb').read()
    pos, idat = 8, b''
    while pos < len(d):
        n, t = struct.unpack('>I4s', d[pos:pos + 8])
        c = d[pos + 8:pos + 8 + n]
        pos += 12 + n
        if t == b'IHDR':
            w, h, _, ct = struct.unpack('>IIBB', c[:10])
        if t == b'IDAT':
            idat += c
    raw, bpp = zlib.decompress(idat), {2: 3, 6: 4}[ct]
    stride, prev, rows = w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        rows.append(bytes(line[x * bpp + k] for x in range(w) for k in range(3)))
    return w, h, b''.join(rows)


def read_ppm(path):
    d = open(path, 'rb').read()
    parts, pos = [], 0
    while len(parts) < 4:
        while d[pos:pos + 1].isspace(): pos += 1
        if d[pos:pos + 1] == b'#':
            pos = d.index(b'\n', pos)
            continue
        start = pos
        while not d[pos:pos + 1].isspace(): pos += 1
        parts.append(d[start:pos])
    assert parts[0] == b'P6' and parts[3] == b'255', f"{path}: not an 8-bit P6 PPM"
    return int(parts[1]), int(parts[2]), d[pos + 1:]


def region_diff(a, b, w, rect, threshold=48):
    """Fraction of pixels in rect whose colour differs by more than threshold in any channel."""
    x0, y0, x1, y1 = rect
    diff = total = 0
    for y in range(y0, y1):
        ra, rb = a[(y * w + x0) * 3:(y * w + x1) * 3], b[(y * w + x0) * 3:(y * w + x1) * 3]
        if ra == rb:
            total += x1 - x0
            continue
        for i in range(0, len(ra), 3):
            total += 1
            if max(abs(ra[i] - rb[i]), abs(ra[i + 1] - rb[i + 1]), abs(ra[i + 2] - rb[i + 2])) > threshold:
                diff += 1
    return diff / max(total, 1)


def is_dark(img, i):
    return img[i] < 80 and img[i + 2] < 80


def white_share(img):
    """The share of white pixels in a sample of every 97th pixel: the kiosk is mostly its white
    paper, where the console or a dark panel is mostly black."""
    sampled = range(0, len(img), 3 * 97)
    return sum(1 for i in sampled if img[i] > 200) / max(len(sampled), 1)


def dark_pixels(img, w, rect):
    x0, y0, x1, y1 = rect
    return sum(1 for y in range(y0, y1) for x in range(x0, x1) if is_dark(img, (y * w + x) * 3))


def ink_and_paper(img, w, rect):
    """Offsets of the ink (dark) and paper (white) pixels of `rect`."""
    x0, y0, x1, y1 = rect
    ink, paper = [], []
    for y in range(y0, y1):
        for x in range(x0, x1):
            i = (y * w + x) * 3
            if is_dark(img, i):
                ink.append(i)
            elif min(img[i:i + 3]) > 200:
                paper.append(i)
    return ink, paper


def contrast(img, ink, paper):
    """Mean brightness at the paper's offsets minus that at the ink's."""
    mean = lambda at: sum(sum(img[i:i + 3]) / 3 for i in at) / max(len(at), 1)
    return mean(paper) - mean(ink)


class QMP:
    def __init__(self, path):
        for _ in range(200):
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                time.sleep(0.05)
        self.file = self.sock.makefile('rw')
        self.file.readline()
        self.cmd('qmp_capabilities')

    def cmd(self, name, **args):
        self.file.write(json.dumps({'execute': name, 'arguments': args}) + '\n')
        self.file.flush()
        while True:
            reply = json.loads(self.file.readline())
            if 'return' in reply or 'error' in reply:
                if 'error' in reply:
                    raise RuntimeError(f"QMP {name}: {reply['error']}")
                return reply['return']


class DisplayResizer:
    """A VNC client that only asks for another display size (RFB SetDesktopSize), as a viewer
    whose window is resized does. QEMU hands the size to virtio-gpu as the panel's preferred mode
    and drops the old one from the connector's modes; std VGA (bochs) keeps its modes. The
    connection is opened at the first resize and kept for the run, as a viewer's would be; what
    QEMU sends on it is never read (no framebuffer update is asked for, so it is little)."""
    def __init__(self, path):
        self.path, self.sock = path, None

    def resize(self, w, h):
        if self.sock is None:
            self.sock = socket.socket(socket.AF_UNIX)
            self.sock.connect(self.path)
            self._read(12)
            self.sock.sendall(b'RFB 003.008\n')
            types = self._read(self._read(1)[0])
            assert 1 in types, f'VNC offers no security type None: {list(types)}'
            self.sock.sendall(b'\x01')
            assert self._read(4) == b'\0\0\0\0', 'VNC refused the connection'
            self.sock.sendall(b'\x01')  # shared
            server_init = self._read(24)
            self._read(struct.unpack('>I', server_init[20:24])[0])  # the desktop's name
            # SetEncodings: the ExtendedDesktopSize pseudo-encoding, which SetDesktopSize needs.
            self.sock.sendall(struct.pack('>BBHi', 2, 0, 1, -308))
        # SetDesktopSize with one screen covering the display.
        self.sock.sendall(struct.pack('>BBHHBB', 251, 0, w, h, 1, 0) + struct.pack('>IHHHHI', 0, 0, 0, w, h, 0))

    def _read(self, n):
        data = b''
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise RuntimeError('VNC closed the connection')
            data += chunk
        return data


def tablet_stroke(qmp, box):
    x0, y0, x1, y1 = box
    def abs_event(x, y):
        return [{'type': 'abs', 'data': {'axis': 'x', 'value': int(x * 0x7fff / W)}},
                {'type': 'abs', 'data': {'axis': 'y', 'value': int(y * 0x7fff / H)}}]
    start = (x0 + (x1 - x0) * 0.25, y0 + (y1 - y0) * 0.5)
    qmp.cmd('input-send-event', events=abs_event(*start))
    time.sleep(0.1)
    qmp.cmd('input-send-event', events=[{'type': 'btn', 'data': {'down': True, 'button': 'left'}}])
    for i in range(1, 41):
        x = start[0] + (x1 - x0) * 0.5 * i / 40
        y = start[1] + (y1 - y0) * 0.2 * ((i % 10) - 5) / 5
        qmp.cmd('input-send-event', events=abs_event(x, y))
        time.sleep(0.02)
    qmp.cmd('input-send-event', events=[{'type': 'btn', 'data': {'down': False, 'button': 'left'}}])


def guest_messages(vm, log, deadline):
    """What the guest says on the serial console, every line of which goes to `log`: ('request',
    words, text) for each "E2E" line, ('file', name, data) for a FILE … END block, ('log', None,
    text) for a LOG BEGIN … LOG END block, and ('timeout', None, None) once `deadline` has passed."""
    current, collecting = None, None
    while time.time() < deadline:
        line = vm.stdout.readline()
        if not line:
            return
        log.write(line)
        text = line.decode(errors='replace').rstrip('\r\n')
        if collecting is not None:
            if text.startswith('E2E END'):
                yield 'file', current, base64.b64decode(''.join(collecting))
                collecting = None
            elif text.startswith('E2E LOG END'):
                yield 'log', None, '\n'.join(collecting)
                collecting = None
            else:
                collecting.append(text)
            continue
        if not text.startswith('E2E '):
            continue
        words = text.split()
        if words[1] == 'FILE':
            current, collecting = words[2], []
        elif words[1:3] == ['LOG', 'BEGIN']:
            collecting = []
        else:
            yield 'request', words, text
    yield 'timeout', None, None


def vm_arguments(description, expected_help, timeout=600):
    """The command line both drivers take: the kernel and initrd to boot, the GPU, the expected
    screens, the output folder, and how long the VM may run before it counts as hung."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--gpu', choices=['bochs', 'virtio'], required=True)
    ap.add_argument('--expected', required=True, help=expected_help)
    ap.add_argument('--out', required=True)
    ap.add_argument('--timeout', type=float, default=timeout)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    return args


def boot_vm(args, memory_mb, gpu, append):
    """Starts QEMU (TCG, one CPU, a USB tablet, the serial console on stdio, QMP on a socket in
    args.out, and with virtio-gpu a VNC display on another, to resize it) and returns the process,
    its QMP connection, its display resizer (None on bochs) and the start time."""
    qmp_path, vnc_path = os.path.join(args.out, 'qmp.sock'), os.path.join(args.out, 'vnc.sock')
    for path in (qmp_path, vnc_path):
        if os.path.exists(path): os.unlink(path)
    gpu_args = ['-vga', 'std', '-global', f'VGA.xres={W}', '-global', f'VGA.yres={H}'] if gpu == 'bochs' else \
               ['-vga', 'none', '-device', f'virtio-gpu-pci,xres={W},yres={H}']
    cmd = ['qemu-system-x86_64', '-accel', 'tcg', '-m', str(memory_mb), '-smp', '1', '-nodefaults', '-no-user-config',
           '-display', 'none' if gpu == 'bochs' else f'vnc=unix:{vnc_path}', *gpu_args, '-device', 'qemu-xhci', '-device', 'usb-tablet',
           '-kernel', args.kernel, '-initrd', args.initrd, '-append', append, '-serial', 'stdio',
           '-qmp', f'unix:{qmp_path},server=on,wait=off', '-no-reboot']
    started = time.time()
    vm = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    return vm, QMP(qmp_path), DisplayResizer(vnc_path) if gpu == 'virtio' else None, started


def main():
    args = vm_arguments(__doc__, 'folder with initial.png and signed.png from signpad replay')
    vm, qmp, resizer, started = boot_vm(args, 1024, args.gpu, 'console=ttyS0 quiet loglevel=3 signpad.mode=e2e')
    results, files, logs, log = [], {}, [], open(os.path.join(args.out, 'serial.log'), 'wb')
    phase, phase_files, markers = 'main', {'main': {}, 'killed': {}, 'full': {}, 'calibrate': {}, 'bench': {}}, []
    files = phase_files['main']
    box, _, _ = layout(W, H)
    booted = None

    def check(name, ok, detail):
        results.append((name, ok))
        print(f"{'PASS' if ok else 'FAIL'} [{args.gpu}] {name}: {detail}", flush=True)

    def answer(word=b'ok'):
        vm.stdin.write(word + b'\n')
        vm.stdin.flush()

    for kind, words, text in guest_messages(vm, log, started + args.timeout):
        if kind == 'timeout':
            check('finished in time', False, f'no DONE after {args.timeout:.0f} s')
            break
        if kind == 'file':
            files[words] = text
            continue
        if kind == 'log':
            logs.append(text)
            continue
        if words[1] == 'screendump':
            if booted is None:
                booted = time.time() - started
            path = os.path.join(args.out, words[2] + '.ppm')
            qmp.cmd('screendump', filename=path)
            answer()
        elif words[1] == 'tablet':
            tablet_stroke(qmp, box)
            answer()
        elif words[1] == 'resize':
            if resizer:
                resizer.resize(*map(int, words[2].split('x')))
                answer()
            else:
                answer(b'unsupported')
        elif words[1] == 'PHASE':
            phase = words[2]
            files = phase_files[phase]
        elif words[1] in ('ALIVE', 'LIST', 'RESTARTED', 'CAUGHT', 'BENCH', 'SPOOL', 'CALIBRATE', 'CTTY', 'RELOAD', 'LATE', 'REPLUG', 'PANEL', 'SLEEP', 'NEWPANEL', 'PINNED', 'AUTO', 'PEN', 'PUTDOWN', 'PAUSE', 'WATER', 'RESTING', 'FLICKER', 'FAULTY', 'ROTATED', 'HUNG', 'UNMOUNTED', 'MISFIT'):
            markers.append(text[4:])
        elif words[1] == 'FAIL':
            check('guest', False, text)
        elif words[1] == 'DONE':
            break
    vm.wait(timeout=60)
    files = phase_files['main']
    elapsed = time.time() - started
    print(f"[{args.gpu}] VM ran {elapsed:.1f} s (daemon ready {booted or -1:.1f} s after start)", flush=True)

    expected_initial = read_png(os.path.join(args.expected, 'initial.png'))
    expected_signed = read_png(os.path.join(args.expected, 'signed.png'))
    shots = {}
    for name in ['initial', 'replugged', 'signed', 'panel-off', 'panel-on', 'asleep', 'awake', 'other-panel', 'taken-anew', 'anew-signed', 'pinned-back', 'cleared', 'restored', 'tablet', 'rotated', 'auto-signed', 'palm-inked', 'palm-withdrawn', 'pen-hover', 'pen-erased', 'pen-signed', 'pen-cleared', 'pen-put-down', 'pen-paused', 'pen-laid', 'water-dot', 'water-signed', 'resting-signed', 'flicker-blank', 'flicker-signed', 'jitter-blank', 'faulty-signed', 'inked', 'crashed', 'full', 'freed', 'calibrating', 'waiting', 'reloaded', 'console-before', 'console-after']:
        p = os.path.join(args.out, name + '.ppm')
        shots[name] = read_ppm(p) if os.path.exists(p) else None
    whole = (0, 0, W, H)
    # The drop (and the resting hand) lands at panel (3800, 3050): screen (950, 572), right of the signature.
    drop = (930, 552, 970, 592)

    def against_replay(shot):
        """How much of the box differs from signpad replay's signed screen, and the ink pixels in it."""
        if shot[:2] != (W, H):
            return 1, 0
        return region_diff(shot[2], expected_signed[2], W, box), dark_pixels(shot[2], W, box)

    def around_drop(shot):
        """How much of the area where the drop or hand lies differs from the signed dry panel's."""
        return region_diff(shot[2], expected_signed[2], W, drop) if shot[:2] == (W, H) else 1

    def against_fresh(shot):
        """How much of the box differs from the fresh kiosk's."""
        return region_diff(shot[2], expected_initial[2], W, box) if shot[:2] == (W, H) else 1

    if shots['initial']:
        d = region_diff(shots['initial'][2], expected_initial[2], W, whole)
        check('1 daemon draws the kiosk layout', d < 0.005, f'{100 * d:.3f}% of pixels differ from the offscreen screen')
    else:
        check('1 daemon draws the kiosk layout', False, 'no screendump')
    if shots['signed']:
        d, ink = against_replay(shots['signed'])
        check('2 uinput ink (predicted ahead while drawn) matches signpad replay predicting nothing: no trace after the lifts', d < 0.002 and ink > 500, f'{ink} ink pixels; {100 * d:.3f}% of the box differs (tolerance 0.2%)')
    else:
        check('2 uinput ink (predicted ahead while drawn) matches signpad replay predicting nothing: no trace after the lifts', False, 'no screendump')
    metas = [n for n in files if n.endswith('.meta.json')]
    if metas:
        meta = json.loads(files[metas[0]])
        sums_ok = all(hashlib.sha256(files.get(n, b'')).hexdigest() == e['sha256'] for n, e in meta['files'].items())
        png = [n for n in files if n.endswith('.png')]
        pngcheck = False
        if png:
            p = os.path.join(args.out, png[0])
            open(p, 'wb').write(files[png[0]])
            pngcheck = subprocess.run(['pngcheck', p], capture_output=True).returncode == 0
        check('2 Done writes the exports', sums_ok and pngcheck and meta['strokes'] == 5 and len(meta['files']) == 4,
              f"{len(files)} files, sha256 {'match' if sums_ok else 'MISMATCH'}, pngcheck {'ok' if pngcheck else 'FAILED'}, {meta['strokes']} strokes")
    else:
        check('2 Done writes the exports', False, f'no metadata among {sorted(files)}')
    if shots['cleared']:
        d = region_diff(shots['cleared'][2], expected_initial[2], W, box)
        check('2 Clear gives a blank box', d < 0.001, f'{100 * d:.3f}% of the box differs from the blank screen')
    else:
        check('2 Clear gives a blank box', False, 'no screendump')
    if shots['restored']:
        white = white_share(shots['restored'][2])
        check('5 the saved CRTC is back after SIGTERM', white < 0.05,
              f'{100 * white:.1f}% of sampled pixels are white (the kiosk screen is mostly white)')
    else:
        check('5 the saved CRTC is back after SIGTERM', False, 'no screendump')
    if shots['tablet']:
        ink = dark_pixels(shots['tablet'][2], W, box)
        check('3 QMP usb-tablet draws ink', ink > 200, f'{ink} ink pixels in the box')
    else:
        check('3 QMP usb-tablet draws ink', False, 'no screendump')
    if shots['inked'] and shots['crashed']:
        # Where the ink and the paper were before the kill: if the signature still showed, the
        # paper would be far brighter than the ink; the console or a dark panel shows neither.
        ink_at, paper_at = ink_and_paper(shots['inked'][2], W, box)
        before, after = contrast(shots['inked'][2], ink_at, paper_at), contrast(shots['crashed'][2], ink_at, paper_at)
        check('5 no ink stays on the panel after kill -9', len(ink_at) > 200 and before > 150 and after < 30,
              f'{len(ink_at)} ink pixels; paper-to-ink contrast {before:.0f} before the kill, {after:.0f} after')
    else:
        check('5 no ink stays on the panel after kill -9', False, 'no screendump')
    all_logs = '\n'.join(logs)
    open(os.path.join(args.out, 'signpad.log'), 'w').write(all_logs)
    dirty = [l for l in all_logs.splitlines() if 'DirtyFB:' in l]
    check('5 DirtyFB answer logged', bool(dirty), dirty[0].split('DirtyFB:', 1)[1].strip() if dirty else 'no DirtyFB line')
    latency = [l for l in all_logs.splitlines() if 'latency event' in l]
    check('6 latency reported at exit', bool(latency), latency[0].split('latency', 1)[1].strip() if latency else 'no latency line')
    def fields(prefix):
        """The key=value words (a value may be a [bracketed list]) of each marker with this prefix."""
        return [dict(w.split('=', 1) for w in re.findall(r'\w+=(?:\[[^\]]*\]|\S+)', m)) for m in markers if m.startswith(prefix)]
    late = fields('LATE DISPLAY')
    waited = len(late) == 2 and late[0].get('cards') == '[]' and late[0].get('alive') == 'yes' and late[0].get('waiting') == '1'
    took = waited and late[1].get('ready') == '1' and 'the display is there after waiting' in all_logs
    check('5 a display driver that loads after signpad starts is waited for, then used', took and bool(shots['initial']),
          f"no card at start: signpad logged 'waiting for a display' once and stayed up; after modprobe it took the card ({late})")
    replug = fields('REPLUG')
    if shots['replugged']:
        d = region_diff(shots['replugged'][2], expected_initial[2], W, whole)
        back = len(replug) == 2 and replug[0].get('gone') == '1' and replug[0].get('alive') == 'yes' and replug[1].get('ready') == '2'
        check('5 a display that goes away and comes back is drawn on again', back and d < 0.005,
              f"PCI remove: signpad noticed and stayed up; after rescan it drew the kiosk again ({100 * d:.3f}% of pixels differ; {replug})")
    else:
        check('5 a display that goes away and comes back is drawn on again', False, 'no screendump')
    panel = fields('PANEL')
    if shots['panel-off'] and shots['panel-on'] and shots['signed']:
        dark = region_diff(shots['panel-off'][2], shots['signed'][2], W, whole)
        back = region_diff(shots['panel-on'][2], shots['signed'][2], W, whole)
        told = len(panel) == 1 and panel[0].get('off') == '1' and panel[0].get('back') == '1' and panel[0].get('alive') == 'yes'
        check('5 a panel switched off and on is shown again with its ink', told and dark > 0.5 and back < 0.002,
              f"connector forced off: output off ({100 * dark:.1f}% of pixels differ from the signed screen); "
              f"back: mode set again, {100 * back:.3f}% differ; {panel}")
    else:
        check('5 a panel switched off and on is shown again with its ink', False, f'no screendump; {panel}')
    sleep = fields('SLEEP')
    if shots['asleep'] and shots['awake']:
        dark = region_diff(shots['asleep'][2], expected_initial[2], W, whole)
        awake = region_diff(shots['awake'][2], expected_initial[2], W, whole)
        # A dot is a few pixels of a large box: counted, not a fraction, against the first kiosk screen.
        reference = (shots['initial'] or expected_initial)[2]
        dots = round(region_diff(shots['awake'][2], reference, W, box, threshold=24) * (box[2] - box[0]) * (box[3] - box[1]))
        told = len(sleep) == 1 and sleep[0].get('off') == '1' and sleep[0].get('on') == '1' and sleep[0].get('alive') == 'yes'
        check('5 an idle screen sleeps and a tap wakes it without ink', told and dark > 0.5 and awake < 0.005 and dots == 0,
              f"sleep_after 2 s: output off ({100 * dark:.1f}% of pixels differ from the kiosk); a tap in the box: "
              f"the kiosk again ({100 * awake:.3f}% differ), {dots} pixels of the box changed; {sleep}")
    else:
        check('5 an idle screen sleeps and a tap wakes it without ink', False, f'no screendump; {sleep}')
    auto = fields('AUTO')
    if shots['auto-signed']:
        d, ink = against_replay(shots['auto-signed'])
        told = len(auto) == 1 and auto[0].get('first') == 'absolute-pointer' and auto[0].get('replaced') == '1' and \
            auto[0].get('touchscreen') == '1' and auto[0].get('alive') == 'yes'
        check('3 without input.device a touchscreen that appears replaces the absolute pointer', told and d < 0.002 and ink > 500,
              f"the usb-tablet taken first; the uinput touchscreen in its place: {ink} ink pixels, {100 * d:.3f}% of the box differs from signpad replay; {auto}")
    else:
        check('3 without input.device a touchscreen that appears replaces the absolute pointer', False, f'no screendump; {auto}')
    rotated = fields('ROTATED')
    if shots['rotated']:
        expected_rotated = read_png(os.path.join(args.expected, 'rotated.png'))
        # The box as the portrait kiosk lays it out, turned into the panel's rows and columns.
        (bx0, by0, bx1, by1), _, _ = layout(H, W)
        turned_box = (by0, H - bx1, by1, H - bx0)
        layout_d = region_diff(shots['rotated'][2], expected_rotated[2], W, whole) if shots['rotated'][:2] == (W, H) else 1
        d = region_diff(shots['rotated'][2], expected_rotated[2], W, turned_box) if shots['rotated'][:2] == (W, H) else 1
        ink = dark_pixels(shots['rotated'][2], W, turned_box)
        told = len(rotated) == 1 and rotated[0].get('turned') == '1' and rotated[0].get('alive') == 'yes'
        check('4 a portrait-mounted panel (rotation 90) shows the kiosk turned, with the ink under the finger', told and layout_d < 0.005 and d < 0.002 and ink > 500,
              f"{100 * layout_d:.3f}% of pixels differ from signpad replay's turned screen; in the box {ink} ink pixels, {100 * d:.3f}% differ; {rotated}")
    else:
        check('4 a portrait-mounted panel (rotation 90) shows the kiosk turned, with the ink under the finger', False, f'no screendump; {rotated}')
    pen = fields('PEN')
    name = '3 a panel\'s pen and touchscreen are read together; touches are ignored while the pen hovers'
    if shots['palm-inked'] and shots['palm-withdrawn']:
        palm = dark_pixels(shots['palm-inked'][2], W, box)
        gone = region_diff(shots['palm-withdrawn'][2], expected_initial[2], W, box)
        told = len(pen) >= 1 and pen[0].get('withdrawn') == '1'
        check('3 a hand on the glass when the pen comes near is taken back', told and palm > 100 and gone < 0.001,
              f"a touch stroke half drawn: {palm} ink pixels; the pen comes near: {100 * gone:.3f}% of the box differs from the blank box; {pen[:1]}")
    else:
        check('3 a hand on the glass when the pen comes near is taken back', False, f'no screendump; {pen[:1]}')
    if shots['pen-hover'] and shots['pen-signed'] and shots['pen-cleared']:
        hover = region_diff(shots['pen-hover'][2], expected_initial[2], W, box)
        d, ink = against_replay(shots['pen-signed'])
        cleared = region_diff(shots['pen-cleared'][2], expected_initial[2], W, box)
        # The second marker is what `signpad devices` says signpad reads.
        told = len(pen) == 2 and pen[0].get('alive') == 'yes' and \
            all(m.get('pen') == '1' and m.get('touchscreen') == '1' and m.get('tablet') == '0' for m in pen)
        check(name, told and hover < 0.001 and d < 0.002 and ink > 500 and cleared < 0.001,
              f"the demo signature on the touchscreen while the pen hovers: {100 * hover:.3f}% of the box differs from the blank box; "
              f"the pen's signature: {ink} ink pixels, {100 * d:.3f}% differs from signpad replay; a tap on Clear on the touchscreen: "
              f"{100 * cleared:.3f}% differs from the blank box; {pen}")
    else:
        check(name, False, f'no screendump; {pen}')
    expected_erased = os.path.join(args.expected, 'erased.png')
    if shots['pen-erased'] and shots['pen-signed'] and os.path.exists(expected_erased):
        d = region_diff(shots['pen-erased'][2], read_png(expected_erased)[2], W, box)
        before, after = dark_pixels(shots['pen-signed'][2], W, box), dark_pixels(shots['pen-erased'][2], W, box)
        check("3 the pen's eraser end takes away the stroke it passes over", d < 0.002 and after < before - 100,
              f"{before} ink pixels before, {after} after; {100 * d:.3f}% of the box differs from signpad replay of the same events")
    else:
        check("3 the pen's eraser end takes away the stroke it passes over", False, 'no screendump or no expected erased.png')
    putdown = fields('PUTDOWN')
    name = '3 a pen lying still near the glass is taken as put down: touches draw again'
    if shots['pen-put-down']:
        d, ink = against_replay(shots['pen-put-down'])
        told = len(putdown) == 1 and putdown[0].get('told') == '1' and putdown[0].get('withdrawn') == '1' and putdown[0].get('alive') == 'yes'
        check(name, told and d < 0.002 and ink > 500,
              f"the pen near and still for 5.5 s, the demo signature on the touchscreen: {ink} ink pixels, "
              f"{100 * d:.3f}% of the box differs from signpad replay; {putdown}")
    else:
        check(name, False, f'no screendump; {putdown}')
    misfit = fields('MISFIT')
    check('5 at start, a configuration that does not fit this kiosk, or does not load, ends signpad with status 78 (EX_CONFIG)',
          len(misfit) == 1 and all(misfit[0].get(k) == '78' for k in ('mode', 'image', 'unloadable')),
          f"exit status with a mode the panel lacks, a background image that does not load, display.rotation = 45: {misfit}")
    pause = fields('PAUSE')
    name = '5 a customer pausing with the pen raised keeps the signature; a pen lying still near the glass does not'
    if shots['pen-paused'] and shots['pen-laid']:
        d, ink = against_replay(shots['pen-paused'])
        wiped = region_diff(shots['pen-laid'][2], expected_initial[2], W, box)
        told = len(pause) == 1 and pause[0].get('alive') == 'yes'
        check(name, told and d < 0.002 and ink > 500 and wiped < 0.001,
              f"idle_timeout 3 s: the pen's signature, then 6 s of the pen moving above the box: {ink} ink pixels, "
              f"{100 * d:.3f}% of the box differs from signpad replay; the pen then still near the glass for 4 s: "
              f"{100 * wiped:.3f}% differs from the blank box; {pause}")
    else:
        check(name, False, f'no screendump; {pause}')
    water = fields('WATER')
    name = '3 a touch left down past the idle timeout is let go of: its dot is wiped and the next finger signs'
    if shots['water-dot'] and shots['water-signed']:
        dot = dark_pixels(shots['water-dot'][2], W, drop)
        d, ink = against_replay(shots['water-signed'])
        wiped = around_drop(shots['water-signed'])
        told = len(water) == 1 and water[0].get('letgo') == '1' and water[0].get('alive') == 'yes'
        check(name, told and dot >= 3 and wiped == 0 and d < 0.002 and ink > 500,
              f"the drop's dot: {dot} ink pixels, then {100 * wiped:.1f}% of the pixels around it differ from the dry panel's; "
              f"a finger signs while the drop stays: {ink} ink pixels, {100 * d:.3f}% of the box differs from signpad replay "
              f"of the dry panel; {water}")
    else:
        check(name, False, f'no screendump; {water}')
    resting = fields('RESTING')
    name = ('3 a hand resting on the glass while a finger signs: its dot is taken back at once, and the signature is as on a dry panel; '
            'a tap on Done beside it, rested again, saves the signature')
    if shots['resting-signed']:
        d, ink = against_replay(shots['resting-signed'])
        wiped = around_drop(shots['resting-signed'])
        told = (len(resting) == 1 and resting[0].get('withdrawn') == '2' and resting[0].get('letgo') == '0'
                and resting[0].get('saved') == '1' and resting[0].get('strokes') == '5' and resting[0].get('alive') == 'yes')
        check(name, told and wiped == 0 and d < 0.002 and ink > 500,
              f"the hand down at (950, 572), the demo signature signed beside it at once: {ink} ink pixels, {100 * d:.3f}% of the "
              f"box differs from signpad replay of the dry panel, {100 * wiped:.1f}% of the pixels around the hand; then the hand "
              f"down again and a tap on Done beside it: {resting}")
    else:
        check(name, False, f'no screendump; {resting}')
    flicker = fields('FLICKER')
    name = '3 water making and breaking contact does not keep a signature on screen: wiped at the idle timeout, and a finger signs after'
    if shots['flicker-blank'] and shots['flicker-signed']:
        blank = against_fresh(shots['flicker-blank'])
        d, ink = against_replay(shots['flicker-signed'])
        told = len(flicker) == 1 and flicker[0].get('held') == '1' and flicker[0].get('alive') == 'yes'
        check(name, told and blank == 0 and d < 0.002 and ink > 500,
              f"the demo signature, then 20 contacts at one place over 8 s (idle timeout 3 s): {100 * blank:.2f}% of the box differs "
              f"from the fresh kiosk at the end; the signature after: {ink} ink pixels, {100 * d:.3f}% of the box differs from "
              f"signpad replay; {flicker}")
    else:
        check(name, False, f'no screendump; {flicker}')
    name = '3 a contact left down that jitters 2 px does not keep a signature on screen: wiped and let go of at the idle timeout'
    if shots['jitter-blank']:
        blank = against_fresh(shots['jitter-blank'])
        told = len(flicker) == 1 and flicker[0].get('letgo') == '1'
        check(name, told and blank == 0,
              f"the demo signature, then a contact down 6 s moving 2 px every 0.05 s (idle timeout 3 s): {100 * blank:.2f}% of the box "
              f"differs from the fresh kiosk at the end; {flicker}")
    else:
        check(name, False, f'no screendump; {flicker}')
    faulty = fields('FAULTY')
    name = '3 a pen with only multitouch axes is skipped with the reason, and the touchscreen beside it signs'
    if shots['faulty-signed']:
        d, ink = against_replay(shots['faulty-signed'])
        told = (len(faulty) == 1 and faulty[0].get('skipped') == '1' and faulty[0].get('taken') == '0'
                and faulty[0].get('touchscreen') == '1' and faulty[0].get('alive') == 'yes')
        check(name, told and d < 0.002 and ink > 500,
              f"the demo signature on the touchscreen: {ink} ink pixels, {100 * d:.3f}% of the box differs from signpad replay; {faulty}")
    else:
        check(name, False, f'no screendump; {faulty}')
    newpanel = fields('NEWPANEL')
    if args.gpu == 'virtio':
        other, anew, signed_anew = shots['other-panel'], shots['taken-anew'], shots['anew-signed']
        if other and anew and signed_anew:
            white = white_share(other[2])
            same = region_diff(anew[2], expected_initial[2], W, whole) if anew[:2] == (W, H) else 1
            ink_diff, ink = against_replay(signed_anew)
            told = len(newpanel) == 1 and newpanel[0].get('without') == '1' and newpanel[0].get('lost') == '1' and \
                newpanel[0].get('ready') == '2' and newpanel[0].get('alive') == 'yes'
            check("5 a panel without the kiosk's size is taken anew at its own", told and other[:2] == (1000, 700) and white > 0.5
                  and same < 0.005 and ink_diff < 0.002 and ink > 500,
                  f"the kiosk at {other[0]}x{other[1]} ({100 * white:.0f}% white); after a panel of {W}x{H} only, the kiosk at "
                  f"{anew[0]}x{anew[1]} ({100 * same:.3f}% differ from the offscreen screen), a signature: {ink} ink pixels, "
                  f"{100 * ink_diff:.3f}% of the box differs from signpad replay; {newpanel}")
        else:
            check("5 a panel without the kiosk's size is taken anew at its own", False, f'no screendump; {newpanel}')
        pinned, back = fields('PINNED'), shots['pinned-back']
        told = len(pinned) == 1 and pinned[0].get('waited') == '1' and pinned[0].get('alive') == 'yes' and pinned[0].get('ready') == '2'
        white = white_share(back[2]) if back else 0
        check('5 a panel without the configured mode is waited out until one with it is back',
              told and back is not None and back[:2] == (1000, 700) and white > 0.5,
              f"display.mode 1000x700, a panel of 1024x768 only: signpad waited, logging it once, and stayed up; "
              f"the panel of 1000x700 back: the kiosk at {back[0] if back else '?'}x{back[1] if back else '?'} ({100 * white:.0f}% white); {pinned}")
    else:
        print(f"[{args.gpu}] 5 a panel without the kiosk's size: not run (QEMU changes only virtio-gpu's modes while it runs)", flush=True)
    unplug = bool(re.search(r'/dev/input/event\d+ went away', all_logs))
    check('4 device unplug is survived', unplug and 'signal 15' in all_logs, 'the uinput device went away between recordings and was taken back')
    check('4 SYN_DROPPED flood is survived', any(m.startswith('ALIVE') for m in markers) and 'SYN_DROPPED' in all_logs,
          'the kernel dropped events while the daemon was frozen; it synced and kept running')
    # kill -9 between two files of one signature's export (strace slowed every fsync down).
    caught = next((m.split() for m in markers if m.startswith('CAUGHT')), ['CAUGHT', '?'])
    after_kill = next((m for m in markers if m.startswith('LIST AFTER KILL')), 'LIST AFTER KILL ?').split()[3:]
    after_restart = next((m for m in markers if m.startswith('LIST AFTER RESTART')), 'LIST AFTER RESTART ?').split()[3:]
    spooled = next((m.split()[3:] for m in markers if m.startswith('SPOOL DURING EXPORT')), [])
    spool_after = next((m.split()[4:] for m in markers if m.startswith('SPOOL AFTER EXPORT RESTART')), ['?'])
    placed = [n for n in after_kill if not n.startswith('.')]
    temporary = [n for n in after_kill if n.startswith('.signpad-')]
    killed_files = phase_files['killed']
    metas = [n for n in killed_files if n.endswith('.meta.json')]
    meta = json.loads(killed_files[metas[0]]) if len(metas) == 1 else {'files': {}}
    sums_ok = len(meta['files']) == 4 and all(hashlib.sha256(killed_files.get(n, b'')).hexdigest() == e['sha256']
                                              for n, e in meta['files'].items())
    # The metadata is renamed into place last, so a kill before it leaves none; the restart
    # writes the same signature from the spool, whole, and sweeps the temporary file away.
    rewritten = len(metas) == 1 and spooled == [metas[0][:-len('.meta.json')] + '.spool.json'] and \
        sorted(after_restart) == sorted(killed_files)
    check('4 kill -9 during an export loses nothing and leaves no partial file',
          caught[1] == 'mid-write' and placed and temporary and not any(n.endswith('.meta.json') for n in placed) and
          'RESTARTED' in markers and rewritten and sums_ok and not spool_after,
          f"killed {caught[1]} with {' '.join(placed) or 'nothing'} in place and {' '.join(temporary) or 'no file'} half-written; "
          f"spool at the kill: {' '.join(spooled) or 'empty'}; after the restart: {len(after_restart)} files, "
          f"{len(metas)} signature(s), sha256 {'match' if sums_ok else 'MISMATCH'}, spool {' '.join(spool_after) or 'empty'}")
    message = layout_message(W, H)
    if shots['full'] and shots['freed']:
        staff = sum(1 for y in range(message[1], message[3]) for x in range(message[0], message[2])
                    if shots['full'][2][(y * W + x) * 3] > 120 and shots['full'][2][(y * W + x) * 3 + 1] < 60)
        full_files = phase_files['full']
        metas = [n for n in full_files if n.endswith('.meta.json')]
        sums_ok = len(metas) == 1 and all(hashlib.sha256(full_files.get(n, b'')).hexdigest() == e['sha256']
                                          for n, e in json.loads(full_files[metas[0]])['files'].items())
        check('4 full export folder: message for staff, saved once there is room', staff > 50 and sums_ok and 'disk is full' in all_logs,
              f'{staff} red message pixels while full; {len(metas)} signature(s) written after freeing space, sha256 ok: {sums_ok}')
        # kill -9 while the folder was full: the spool alone held it, and the restart wrote it.
        at_kill = next((m.split()[3:] for m in markers if m.startswith('SPOOL AT KILL')), [])
        after = next((m.split()[3:] for m in markers if m.startswith('SPOOL AFTER RESTART')), ['?'])
        recovered = '1 signature(s) from before the last exit found' in all_logs
        written = [n[:-len('.meta.json')] for n in metas]
        check('4 kill -9 while the folder is full loses no signature',
              len(at_kill) == 1 and recovered and sums_ok and written == [at_kill[0][:-len('.spool.json')]] and not after,
              f"spool at the kill: {' '.join(at_kill) or 'empty'}; recovered at the restart: {recovered}; "
              f"written after freeing space: {' '.join(written) or 'nothing'}; spool after: {' '.join(after) or 'empty'}")
    else:
        check('4 full export folder: message for staff, saved once there is room', False, 'no screendumps')
        check('4 kill -9 while the folder is full loses no signature', False, 'no screendumps')
    hung = fields('HUNG')
    waited = len(hung) == 2 and hung[0].get('ready') == '1' and hung[0].get('spool') == '1' and hung[0].get('exports') == '0'
    answered = waited and hung[1].get('spool') == '0' and hung[1].get('exports') == '6' and hung[1].get('alive') == 'yes'
    check('4 an export folder that does not answer at start holds up nothing: signed, spooled, written when it answers', answered,
          f"mkdir of the folder held 30 s: signpad ready and the confirmed signature in the spool while it hung, "
          f"its 5 files in the folder after; {hung}")
    unmounted = fields('UNMOUNTED')
    kept = len(unmounted) == 2 and unmounted[0].get('local') == '0' and unmounted[0].get('spool') == '1' and unmounted[0].get('missing', '0') != '0'
    check('4 with export.create_directory false, a share not yet mounted gets nothing on local disk; its signature is written once it is',
          kept and unmounted[1].get('share') == '6' and unmounted[1].get('local') == '0' and unmounted[1].get('spool') == '0' and unmounted[1].get('alive') == 'yes',
          f"before the mount: nothing under the mount point, the signature in the spool, the folder said missing; "
          f"after: its 5 files on the share, nothing left under the mount point or in the spool; {unmounted}")
    # SIGHUP: a broken file is refused (file and line named); a good one waits for the customer's
    # Clear, then the same process starts again and draws exactly what the new file draws offscreen.
    refused = re.search(r'not reloading: (\S+signpad\.toml:\d+)', all_logs)
    # "RELOAD READY <ready: lines> PIDS <pid before> <pid after>"
    reload = next((m.split() for m in markers if m.startswith('RELOAD READY')), [])
    ready, pids = (reload[2], reload[4:]) if len(reload) > 4 else ('?', [])
    expected_reloaded = read_png(os.path.join(args.expected, 'reloaded.png'))
    if shots['waiting'] and shots['reloaded']:
        waiting_ink = dark_pixels(shots['waiting'][2], W, box)
        waiting_same = region_diff(shots['waiting'][2], expected_signed[2], W, box)
        # At 16 the new background (47 from white in red) counts: a missed reload differs almost everywhere.
        d = region_diff(shots['reloaded'][2], expected_reloaded[2], W, whole, threshold=16)
        check('9 SIGHUP: a broken configuration is refused; a good one waits for the customer, then applies in the same process',
              refused is not None and 'reloading once nobody is at the pad' in all_logs and waiting_ink > 500 and waiting_same < 0.002 and
              ready == '2' and len(pids) == 2 and pids[0] == pids[1] and d < 0.01,
              f"refused: {refused.group(1) if refused else 'NOT LOGGED'}; while signing: {waiting_ink} ink pixels, {100 * waiting_same:.3f}% of the box differs "
              f"from before the signal; after Clear: ready {ready} times, pid {' then '.join(pids) or '?'}, {100 * d:.3f}% of pixels differ from the new configuration offscreen")
    else:
        check('9 SIGHUP: a broken configuration is refused; a good one waits for the customer, then applies in the same process', False, 'no screendumps')
    # "RELOAD MODE refused=<n> ready=<n> alive=yes": a mode the panel lacks is refused before the screen is handed back.
    mode = next((dict(w.split('=', 1) for w in m.split()[2:]) for m in markers if m.startswith('RELOAD MODE')), {})
    check('9 SIGHUP: a configuration naming a mode the panel does not have is refused, and the kiosk goes on',
          mode.get('refused') == '1' and mode.get('ready') == '1' and mode.get('alive') == 'yes',
          f"{mode or 'no RELOAD MODE line'}; {re.search(r'not reloading: [^;]*has no mode 1234x567[^;]*', all_logs).group(0) if 'has no mode 1234x567' in all_logs else 'not logged'}")
    image = next((dict(w.split('=', 1) for w in m.split()[2:]) for m in markers if m.startswith('RELOAD IMAGE')), {})
    check('9 SIGHUP: a configuration whose background image does not load is refused, and the kiosk goes on',
          image.get('refused') == '1' and image.get('ready') == '1' and image.get('alive') == 'yes',
          f"{image or 'no RELOAD IMAGE line'}; {re.search(r'not reloading: /share/no-such-brand.png[^;]*', all_logs).group(0) if 'not reloading: /share/no-such-brand.png' in all_logs else 'not logged'}")
    # /proc/PID/stat: the session (the PID itself for a session leader) and tty_nr (0: no terminal).
    ttys = [m.split()[-3:] for m in markers if m.startswith('CTTY')]
    check('5 the console stays no terminal of the daemon (O_NOCTTY)', len(ttys) == 2 and all(p == sid and tty == '0' for p, sid, tty in ttys),
          f"signpad holding /dev/tty1, at start and after a reload: " + '; '.join(f'pid {p} session {sid} tty_nr {tty}' for p, sid, tty in ttys))
    # signpad calibrate on a panel skewed by CALIBRATION_TRUTH: a cross on the first target, and the matrix.
    calibration = phase_files['calibrate'].get('calibrate.txt', b'').decode(errors='replace')
    calibration_exit = next((m.split()[-1] for m in markers if m.startswith('CALIBRATE EXIT')), '?')
    found = next((l for l in calibration.splitlines() if l.startswith('calibration = [')), '')
    values = [float(v) for v in found[len('calibration = ['):-1].split(',')] if found else []
    off = max((abs(v - t) for v, t in zip(values, CALIBRATION_TRUTH)), default=1) if len(values) == 6 else 1
    worst = re.search(r'farthest is ([0-9.]+) px', calibration)
    tx, ty, arm = int(CALIBRATION_TARGETS[0][0] * W), int(CALIBRATION_TARGETS[0][1] * H), min(W, H) // 25
    cross = sum(1 for y in range(ty - arm, ty + arm) for x in range(tx - arm, tx + arm)
                if shots['calibrating'] and max(shots['calibrating'][2][(y * W + x) * 3:(y * W + x) * 3 + 3]) < 100) \
        if shots['calibrating'] else 0
    check('8 calibrate finds the matrix of a skewed panel', calibration_exit == '0' and off < 0.003 and worst and float(worst.group(1)) < 2 and 2 * arm < cross < (2 * arm) ** 2 // 4,
          f"exit {calibration_exit}; {found or calibration.strip()[:300] or 'no output'}; largest difference from the truth {off:.4f}; "
          f"farthest touch {worst.group(1) if worst else '?'} px; {cross} dark pixels of {(2 * arm) ** 2} around the first cross")
    # calibrate --write: the VM's configuration has no [input] table, so one is added at the end
    # and every line before it stays; signpad check-config then reads the matrix back from it.
    before = phase_files['calibrate'].get('config-before.toml', b'').decode(errors='replace')
    after = phase_files['calibrate'].get('config-after.toml', b'').decode(errors='replace')
    effective = phase_files['calibrate'].get('check-config.txt', b'').decode(errors='replace')
    reread = next((l for l in effective.splitlines() if l.startswith('calibration = [')), '')
    reread_values = [float(v) for v in reread[len('calibration = ['):-1].split(',')] if reread else []
    added = after[len(before):].splitlines() if before and after.startswith(before) else []
    check('8 calibrate --write adds the matrix to the configuration and keeps every other line',
          calibration_exit == '0' and added == ['', '[input]', found] and len(reread_values) == 6 and reread_values == values,
          f"lines added: {added or 'the file changed before the end' if after else 'no file'}; check-config reads {reread or effective.strip()[:200] or 'nothing'}")
    bench = phase_files['bench'].get('bench.txt', b'').decode(errors='replace')
    open(os.path.join(args.out, 'bench.txt'), 'w').write(bench)
    rows = {l[0]: l.split() for l in bench.splitlines() if l[:2] in ('a ', 'b ', 'c ', 'd ')}
    targets = next((l for l in bench.splitlines() if l.startswith('targets:')), '')
    bench_exit = next((m.split()[-1] for m in markers if m.startswith('BENCH EXIT')), '?')
    # Counted from the end, as (b)'s name is three words: % frame is fifth from last, lag max last.
    on_panel = bench_exit == '0' and '/dev/dri/card0' in bench.splitlines()[0] and len(rows) == 4 and \
        float(rows['b'][-5]) == 100.0 and float(rows['d'][-5]) <= 0.5 and rows['d'][-1] == '0'
    check('7 bench on the panel: four strategies through the dumb buffer and DirtyFB', on_panel,
          f"(d) {rows['d'][-5]}% of a frame per event, lag max {rows['d'][-1]}; {targets[9:].split(';')[0].strip()} (TCG: not a speed figure)"
          if on_panel else f'exit {bench_exit}: {bench.strip()[:400]}')
    stopped = phase_files['bench'].get('bench-stopped.txt', b'').decode(errors='replace')
    stopped_exit = next((m.split()[-1] for m in markers if m.startswith('BENCH STOPPED EXIT')), '?')
    if shots['console-before'] and shots['console-after']:
        written = region_diff(shots['console-before'][2], shots['console-after'][2], W, whole)
        check('5 a signal ends bench --on-screen and hands the console back in text mode',
              stopped_exit == '1' and 'stopped by signal 15' in stopped and written > 0.002,
              f"exit {stopped_exit}: {stopped.strip().splitlines()[-1] if stopped.strip() else 'no output'}; "
              f"text written to the console changed {100 * written:.2f}% of the screen")
    else:
        check('5 a signal ends bench --on-screen and hands the console back in text mode', False, 'no screendumps')
    failed = [n for n, ok in results if not ok]
    print(f"[{args.gpu}] {len(results) - len(failed)} passed, {len(failed)} failed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
