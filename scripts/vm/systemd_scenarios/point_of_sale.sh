# The point of sale's API through the packaged unit: the socket and its group, a request's text on
# the screen, a signature through uinput, Busy, Cancel, a timeout, a caller outside the group, and
# a request under way when signpad is killed, answered after the restart. A touch device stays
# plugged in throughout: without one a request is NotReady.
sock=/run/signpad/control.sock
req() { signpad request --socket "$sock" "$@"; }
field() { grep -o "\"$1\":\"[^\"]*\"" | head -1 | cut -d'"' -f4; }
say "CHECK socket $(stat -c '%U:%G %a' "$sock")"
req --reference VM-0 > /run/req0.out 2>&1
say "CHECK requestnotready exit $? told $(grep -c 'org.signpad.Kiosk.NotReady' /run/req0.out)"
evemu-device /usr/share/signpad-vm/signature.evemu > /run/evemu-api.out 2>&1 &
api_pid=$!
wait_for 5 grep -q '/dev/input/event' /run/evemu-api.out
api_node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /run/evemu-api.out)
status_has 10 'signpad demo touchscreen'
req --reference VM-1 --title "Total 12.50 EUR" --line "Card ending 1234" --line "I agree to pay the amount above" --json > /run/req1.json 2>&1 &
req1=$!
wait_for 10 grep -q '"progress":"shown"' /run/req1.json
sleep 1
ask "screendump sd-request"
evemu-play "$api_node" < /usr/share/signpad-vm/signature.evemu
evemu-play "$api_node" < /usr/share/signpad-vm/tap-done.evemu
wait "$req1"; req1_exit=$?
last=$(tail -1 /run/req1.json)
exist=yes
for name in $(echo "$last" | grep -o '"name":"[^"]*"' | cut -d'"' -f4); do [ -f "$exports/$name" ] || exist=no; done
say "CHECK requestsigned exit $req1_exit status $(echo "$last" | field status) stored $(echo "$last" | field stored) reference $(echo "$last" | field reference) files $(echo "$last" | grep -o '"name":"VM-1_[^"]*"' | wc -l) exist $exist"
sleep 3
ask "screendump sd-request-after"
req --reference VM-2 --json > /run/req2.json 2>&1 &
req2=$!
wait_for 10 grep -q '"progress":"shown"' /run/req2.json
id2=$(head -1 /run/req2.json | field id)
req --reference VM-3 > /run/req3.out 2>&1; busy_exit=$?
req --cancel "$id2" > /run/cancel.out 2>&1; cancel_exit=$?
wait "$req2"; req2_exit=$?
say "CHECK requestbusy exit $busy_exit told $(grep -c 'org.signpad.Kiosk.Busy' /run/req3.out)"
say "CHECK requestcancel exit $cancel_exit waiting $req2_exit status $(tail -1 /run/req2.json | field status)"
req --reference VM-4 --timeout 5 --json > /run/req4.json 2>&1; timeout_exit=$?
say "CHECK requesttimeout exit $timeout_exit status $(tail -1 /run/req4.json | field status)"
setpriv --reuid=nobody --regid=nogroup --clear-groups signpad request --socket "$sock" --status > /run/outsider.out 2>&1
say "CHECK requestoutsider exit $? denied $(grep -c 'Permission denied' /run/outsider.out)"
req --reference VM-5 --json > /run/req5.json 2>&1 &
req5=$!
wait_for 10 grep -q '"progress":"shown"' /run/req5.json
id5=$(head -1 /run/req5.json | field id)
restarts=$(prop NRestarts)
kill -KILL "$(prop MainPID)"
wait "$req5"
wait_for 40 above "$restarts" prop NRestarts
wait_for 30 running
wait_for 30 sh -c "signpad request --socket $sock --status >/dev/null 2>&1"
# NotReady while the restarted kiosk looks for the request's signature, then its result.
for _ in $(seq 50); do
    killed_result=$(req --result "$id5" --json 2>&1)
    echo "$killed_result" | grep -q 'NotReady' || break
    sleep 0.3
done
say "CHECK requestkilled status $(echo "$killed_result" | field status) restarts_before $restarts restarts $(prop NRestarts)"
kill "$api_pid"; wait "$api_pid" 2>/dev/null
