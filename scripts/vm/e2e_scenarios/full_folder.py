"""A full export folder: a message for staff, nothing lost through kill -9, written once there is room."""
import hashlib, json

from driver import W, H, layout_message

GUEST = r'''
# An export folder on a tiny full tmpfs: a message for staff, nothing lost, saved once there is room.
mkdir -p /export-small
mount -t tmpfs -o size=512k small /export-small
dd if=/dev/zero of=/export-small/filler bs=4096 count=200 2>/dev/null
: > /tmp/signpad.log
start_signpad --set 'input.device="signpad demo touchscreen"' --set 'export.directory="/export-small"'
play /share/signature.evemu
play /share/tap-done.evemu
sleep 1
ask "screendump full"
# A power cut while the folder is full: the signature is nowhere but in the spool.
kill -KILL "$(cat /run/signpad.pid)"
say "SPOOL AT KILL $(ls -A /var/lib/signpad/spool | tr '\n' ' ')"
rm /export-small/filler
start_signpad --set 'input.device="signpad demo touchscreen"' --set 'export.directory="/export-small"'
for i in $(seq 50); do ls /export-small/*.meta.json >/dev/null 2>&1 && break; sleep 0.2; done
sleep 1
ask "screendump freed"
say "SPOOL AFTER RESTART $(ls -A /var/lib/signpad/spool | tr '\n' ' ')"
say "PHASE full"
for f in /export-small/*; do [ -f "$f" ] || continue; say "FILE $(basename "$f")"; base64 "$f"; say "END"; done
stop_signpad
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
'''


def check(run):
    shots, check, markers, all_logs = run.shots, run.check, run.markers, run.all_logs
    phase_files = run.phase_files
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
