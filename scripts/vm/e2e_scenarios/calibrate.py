"""signpad calibrate on a skewed panel finds its matrix, and --write adds it to the configuration.

Its guest steps are calibrate.sh, beside this file; its host checks are check(run), here."""
import re

from driver import W, H, CALIBRATION_TARGETS, CALIBRATION_TRUTH


def check(run):
    shots, check, markers, phase_files = run.shots, run.check, run.markers, run.phase_files
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
