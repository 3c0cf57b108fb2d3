"""signpad calibrate on a skewed panel finds its matrix, and --write adds it to the configuration."""
import re

from driver import W, H, CALIBRATION_TARGETS, CALIBRATION_TRUTH

GUEST = r'''
# Calibration on a panel that reads off by a known matrix: a cross for each target, one tap each.
evemu-device /share/calibration-taps.evemu > /tmp/evemu-device.out 2>&1 &
dev_pid=$!
for i in $(seq 50); do node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /tmp/evemu-device.out); [ -n "$node" ] && break; sleep 0.1; done
cp /etc/signpad/signpad.toml /tmp/config-before.toml
signpad calibrate --write --config /etc/signpad/signpad.toml --set 'input.device="signpad demo touchscreen"' --timeout 30 > /tmp/calibrate.txt 2>/tmp/calibrate.log &
cal_pid=$!
for i in $(seq 100); do grep -q "target 1 of" /tmp/calibrate.log && break; sleep 0.1; done
ask "screendump calibrating"
evemu-play "$node" < /share/calibration-taps.evemu
wait $cal_pid
say "CALIBRATE EXIT $?"
kill $dev_pid; wait $dev_pid 2>/dev/null
say "PHASE calibrate"
say "FILE calibrate.txt"; base64 /tmp/calibrate.txt; say "END"
say "FILE config-before.toml"; base64 /tmp/config-before.toml; say "END"
say "FILE config-after.toml"; base64 /etc/signpad/signpad.toml; say "END"
signpad check-config /etc/signpad/signpad.toml > /tmp/check-config.txt 2>&1
say "FILE check-config.txt"; base64 /tmp/check-config.txt; say "END"
say "LOG BEGIN"; cat /tmp/calibrate.log; say "LOG END"
'''


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
