"""kill -9 between two files of one signature's export: nothing lost, no partial file.

Its guest steps are killed_mid_export.sh, beside this file; its host checks are check(run), here."""
import hashlib, json


def check(run):
    check, markers, phase_files = run.check, run.markers, run.phase_files
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
