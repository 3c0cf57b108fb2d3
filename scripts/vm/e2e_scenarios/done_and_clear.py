"""Done writes the exports, Clear blanks the box, SIGTERM gives the saved CRTC back, and the
journal has the DirtyFB answer and the latency report.

Its guest steps are done_and_clear.sh, beside this file; its host checks are check(run), here."""
import hashlib, json, os, subprocess

from driver import W, region_diff, white_share


def check(run):
    shots, check, all_logs, files = run.shots, run.check, run.all_logs, run.files
    args, expected_initial, box = run.args, run.expected_initial, run.box
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
    dirty = [l for l in all_logs.splitlines() if 'DirtyFB:' in l]
    check('5 DirtyFB answer logged', bool(dirty), dirty[0].split('DirtyFB:', 1)[1].strip() if dirty else 'no DirtyFB line')
    latency = [l for l in all_logs.splitlines() if 'latency event' in l]
    check('6 latency reported at exit', bool(latency), latency[0].split('latency', 1)[1].strip() if latency else 'no latency line')
