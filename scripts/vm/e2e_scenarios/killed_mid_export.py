"""kill -9 between two files of one signature's export: nothing lost, no partial file."""
import hashlib, json


GUEST = r'''
# kill -9 in the middle of an export, then a restart. Under strace every fsync waits 0.3 s, so
# one signature's files take seconds to write, and the kill lands after some of them are in
# place and while the next is still a temporary file: the worst moment, every time.
stop_signpad
wrap="strace -f --seccomp-bpf -qq -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=300000"
start_signpad --set 'input.device="signpad demo touchscreen"'
wrap=
play /share/signature.evemu
seen=$(grep -c "input /dev/input" /tmp/signpad.log)
evemu-device /share/tap-done.evemu > /tmp/evemu-device.out 2>&1 &
dev_pid=$!
for i in $(seq 50); do node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /tmp/evemu-device.out); [ -n "$node" ] && break; sleep 0.1; done
for i in $(seq 50); do [ "$(grep -c "input /dev/input" /tmp/signpad.log)" -gt "$seen" ] && break; sleep 0.1; done
evemu-play "$node" < /share/tap-done.evemu
caught=no
for i in $(seq 600); do
    placed=no temporary=no
    for f in /export/*; do [ -e "$f" ] && placed=yes; done
    for f in /export/.signpad-*; do [ -e "$f" ] && temporary=yes; done
    [ $placed$temporary = yesyes ] && caught=mid-write && break
    sleep 0.05
done
kill -KILL "$(pidof signpad)"
for i in $(seq 50); do kill -0 "$(cat /run/signpad.pid)" 2>/dev/null || break; sleep 0.1; done
say "CAUGHT $caught"
kill $dev_pid; wait $dev_pid 2>/dev/null
say "LIST AFTER KILL $(ls -A /export | tr '\n' ' ')"
say "SPOOL DURING EXPORT $(ls -A /var/lib/signpad/spool | tr '\n' ' ')"
start_signpad --set 'input.device="signpad demo touchscreen"' && say "RESTARTED"
for i in $(seq 50); do ls /export/*.meta.json >/dev/null 2>&1 && break; sleep 0.2; done
sleep 0.5
say "LIST AFTER RESTART $(ls -A /export | tr '\n' ' ')"
say "SPOOL AFTER EXPORT RESTART $(ls -A /var/lib/signpad/spool | tr '\n' ' ')"
say "PHASE killed"
send_exports
stop_signpad
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
'''


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
