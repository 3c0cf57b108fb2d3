"""A full export folder: a message for staff, nothing lost through kill -9, written once there is room.

Its guest steps are full_folder.sh, beside this file; its host checks are check(run), here."""
import hashlib, json

from driver import W, H, layout_message


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
        recovered = any('from before the last exit found' in l and 'count=1 ' in l for l in all_logs.splitlines())
        written = [n[:-len('.meta.json')] for n in metas]
        check('4 kill -9 while the folder is full loses no signature',
              len(at_kill) == 1 and recovered and sums_ok and written == [at_kill[0][:-len('.spool.json')]] and not after,
              f"spool at the kill: {' '.join(at_kill) or 'empty'}; recovered at the restart: {recovered}; "
              f"written after freeing space: {' '.join(written) or 'nothing'}; spool after: {' '.join(after) or 'empty'}")
    else:
        check('4 full export folder: message for staff, saved once there is room', False, 'no screendumps')
        check('4 kill -9 while the folder is full loses no signature', False, 'no screendumps')
