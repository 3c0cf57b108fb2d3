# kill -9 in the middle of an export, then a restart. Under strace every fsync waits 0.3 s, so
# one signature's files take seconds to write, and the kill lands after some of them are in
# place and while the next is still a temporary file: the worst moment, every time.
stop_signpad
wrap="strace -f --seccomp-bpf -qq -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=300000"
start_signpad --set 'input.device="signpad demo touchscreen"'
wrap=
play /share/signature.evemu
seen=$(grep -c "input device taken" /tmp/signpad.log)
evemu-device /share/tap-done.evemu > /tmp/evemu-device.out 2>&1 &
dev_pid=$!
for i in $(seq 50); do node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /tmp/evemu-device.out); [ -n "$node" ] && break; sleep 0.1; done
for i in $(seq 50); do [ "$(grep -c "input device taken" /tmp/signpad.log)" -gt "$seen" ] && break; sleep 0.1; done
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
