"""What the host sides of the two VM tests (e2e_driver.py, systemd_driver.py), their scenarios'
checks and scripts/vm-e2e share: the panel's size and where signpad lays the screen out, the
input recordings the guest plays, reading and comparing screens, QMP, and booting the VM and
reading what the guest says on its serial console. A library: it runs nothing."""
import argparse, base64, json, math, os, shutil, socket, struct, subprocess, time, zlib

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


def review_layout(w, h):
    """The screen a document is read on (`signpad layout --review`): prompt, page and buttons."""
    out = subprocess.run([signpad_binary(), 'layout', '--review', '--screen', f'{w}x{h}', '--json'], capture_output=True, text=True, check=True).stdout
    return {k: tuple(v) for k, v in json.loads(out).items()}


def review_files(touch_path, out_dir, w, h):
    """On the demo panel: a customer reading a page by dragging it up four times, each drag from
    near the page's foot to near its top (read-document.evemu), and a tap on Sign (tap-sign.evemu)."""
    parts = review_layout(w, h)
    page, sign = parts['page'], parts['sign']

    def units(x, y):
        return x * 4096 // w, y * 4096 // h
    lines, t = evemu_header(touch_path), 1.0
    x, bottom, top = (page[0] + page[2]) // 2, page[3] - 10, page[1] + 10
    for contact in range(4):
        for step in range(17):
            px, py = units(x, bottom - (bottom - top) * step // 16)
            body = [(3, 0x35, px), (3, 0x36, py), (3, 0, px), (3, 1, py)]
            if step == 0:
                body = [(3, 0x2f, 0), (3, 0x39, 200 + contact)] + body[:2] + [(1, 0x14a, 1)] + body[2:]
            lines += [evemu_event(t, typ, code, value) for typ, code, value in body + [(0, 0, 0)]]
            t += 0.02
        lines += [evemu_event(t, 3, 0x39, -1), evemu_event(t, 1, 0x14a, 0), evemu_event(t, 0, 0, 0)]
        t += 0.3
    with open(os.path.join(out_dir, 'read-document.evemu'), 'w') as out:
        out.writelines(lines)
    x, y = units((sign[0] + sign[2]) // 2, (sign[1] + sign[3]) // 2)
    tap = [(1.0, [(3, 0x2f, 0), (3, 0x39, 250), (3, 0x35, x), (3, 0x36, y), (1, 0x14a, 1), (3, 0, x), (3, 1, y)]), (1.08, [(3, 0x39, -1), (1, 0x14a, 0)])]
    with open(os.path.join(out_dir, 'tap-sign.evemu'), 'w') as out:
        out.writelines(evemu_header(touch_path) + [evemu_event(t, typ, code, value) for t, body in tap for typ, code, value in body + [(0, 0, 0)]])


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


def guest_messages(vm, log, deadline, steps=None):
    """What the guest says on the serial console, every line of which goes to `log`: ('request',
    words, text) for each "E2E" line, ('file', name, data) for a FILE … END block, ('log', None,
    text) for a LOG BEGIN … LOG END block, and ('timeout', None, None) once `deadline` has passed.
    Each scenario's start ("E2E STEP name") is kept in the list `steps` with the host's time."""
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
        if words[1] == 'STEP':
            if steps is not None:
                steps.append((words[2], time.time()))
        elif words[1] == 'FILE':
            current, collecting = words[2], []
        elif words[1:3] == ['LOG', 'BEGIN']:
            collecting = []
        else:
            yield 'request', words, text
    yield 'timeout', None, None


def step_times(tag, steps, end):
    """One line naming how long each scenario ran, longest first, for trimming the VM's time."""
    spans = [(name, (steps[i + 1][1] if i + 1 < len(steps) else end) - at) for i, (name, at) in enumerate(steps)]
    spans.sort(key=lambda span: -span[1])
    return f"[{tag}] scenario seconds: " + ', '.join(f'{name} {seconds:.0f}' for name, seconds in spans)


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


def software_tpm(folder):
    """A software TPM 2.0 (swtpm) for one VM, state in folder/tpm: QEMU's arguments for a TIS
    TPM (on the ISA bus of QEMU's pc machine) backed by it. swtpm ends when QEMU lets go of it."""
    state = os.path.join(folder, 'tpm')
    shutil.rmtree(state, ignore_errors=True)
    os.makedirs(state)
    control = os.path.join(state, 'swtpm.sock')
    subprocess.run(['swtpm', 'socket', '--tpm2', '--tpmstate', f'dir={state}', '--ctrl', f'type=unixio,path={control}',
                    '--log', f'file={state}/swtpm.log,level=1', '--daemon'], check=True)
    for _ in range(100):
        if os.path.exists(control): break
        time.sleep(0.05)
    return ['-chardev', f'socket,id=chrtpm,path={control}', '-tpmdev', 'emulator,id=tpm0,chardev=chrtpm', '-device', 'tpm-tis,tpmdev=tpm0']


def boot_vm(args, memory_mb, gpu, append, tpm=False):
    """Starts QEMU (TCG, one CPU, a USB tablet, the serial console on stdio, QMP on a socket in
    args.out, with virtio-gpu a VNC display on another, to resize it, and if asked a TPM 2.0) and
    returns the process, its QMP connection, its display resizer (None on bochs) and the start time."""
    qmp_path, vnc_path = os.path.join(args.out, 'qmp.sock'), os.path.join(args.out, 'vnc.sock')
    for path in (qmp_path, vnc_path):
        if os.path.exists(path): os.unlink(path)
    tpm_args = software_tpm(args.out) if tpm else []
    gpu_args = ['-vga', 'std', '-global', f'VGA.xres={W}', '-global', f'VGA.yres={H}'] if gpu == 'bochs' else \
               ['-vga', 'none', '-device', f'virtio-gpu-pci,xres={W},yres={H}']
    cmd = ['qemu-system-x86_64', '-accel', 'tcg', '-m', str(memory_mb), '-smp', '1', '-nodefaults', '-no-user-config',
           '-display', 'none' if gpu == 'bochs' else f'vnc=unix:{vnc_path}', *gpu_args, '-device', 'qemu-xhci', '-device', 'usb-tablet',
           '-kernel', args.kernel, '-initrd', args.initrd, '-append', append, '-serial', 'stdio',
           '-qmp', f'unix:{qmp_path},server=on,wait=off', '-no-reboot', *tpm_args]
    started = time.time()
    vm = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    return vm, QMP(qmp_path), DisplayResizer(vnc_path) if gpu == 'virtio' else None, started
