# Signed through uinput; signpad is killed (-9) as soon as the signature's spool file or its
# manifest appears, before its answer is kept. After the restart the result must be signed.
sock=/run/signpad/control.sock
field() { grep -o "\"$1\":\"[^\"]*\"" | head -1 | cut -d'"' -f4; }
evemu-device /usr/share/signpad-vm/signature.evemu > /run/evemu-kill.out 2>&1 &
kill_dev=$!
wait_for 5 grep -q '/dev/input/event' /run/evemu-kill.out
kill_node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /run/evemu-kill.out)
status_has 10 'signpad demo touchscreen'
signpad request --socket "$sock" --reference VM-KILL --json > /run/reqkill.json 2>&1 &
reqkill=$!
wait_for 10 grep -q '"progress":"shown"' /run/reqkill.json
idk=$(head -1 /run/reqkill.json | field id)
evemu-play "$kill_node" < /usr/share/signpad-vm/signature.evemu
evemu-play "$kill_node" < /usr/share/signpad-vm/tap-done.evemu
kept() { [ -e "/var/lib/signpad/spool/$idk.spool.json" ] || [ -e "$exports/$idk.meta.json" ]; }
wait_for 60 kept
answered=$(grep -c '"status"' /run/reqkill.json)
restarts=$(prop NRestarts)
kill -KILL "$(prop MainPID)"
wait "$reqkill"
wait_for 40 above "$restarts" prop NRestarts
wait_for 30 running
result=
for _ in $(seq 100); do
    result=$(signpad request --socket "$sock" --result "$idk" --json 2>&1)
    echo "$result" | grep -q 'NotReady\|No such file\|Connection refused' || break
    sleep 0.3
done
on_disk=no
kept && on_disk=yes
say "CHECK killedafterdone status $(echo "$result" | field status) stored $(echo "$result" | field stored) ondisk $on_disk answered_before_kill $answered"
kill "$kill_dev"; wait "$kill_dev" 2>/dev/null
