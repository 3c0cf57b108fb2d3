"""The point of sale's API through the packaged unit: the socket and its group, NotReady without a
touch device, a request's text on the screen, a signature through uinput, Busy, Cancel, a
timeout, a caller outside the group, and a request under way when signpad is killed."""
from driver import W, H, dark_pixels, region_diff, request_lines

GUEST = r'''
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
wait_for 40 test "$(prop NRestarts)" -gt "$restarts"
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
'''


def check(run):
    sock = run.said('socket')
    run.check('S16 the packaged unit makes the control socket 0660 for the signpad-pos group', sock['text'] == 'signpad:signpad-pos 660', sock['text'])
    notready = run.said('requestnotready')
    run.check('S23 without a touch device a request is NotReady', notready.get('exit') == '2' and notready.get('told') == '1', notready['text'])
    request_shot, after_shot = run.shot('sd-request'), run.shot('sd-request-after')
    lines = request_lines(W, H, 2)
    text_ink = dark_pixels(request_shot, W, lines) if request_shot else 0
    before_ink = dark_pixels(run.expected['reloaded'], W, lines)
    run.check('S17 a request shows its title and lines above the box', text_ink > 300 and before_ink < 50,
              f'{text_ink} dark pixels where its two lines go, {before_ink} there without a request')
    signed = run.said('requestsigned')
    run.check('S18 signed through uinput and Done, the reply names the reference and files that exist',
              signed.get('exit') == '0' and signed.get('status') == 'signed' and signed.get('stored') == 'saved' and
              signed.get('reference') == 'VM-1' and signed.get('files') == '6' and signed.get('exist') == 'yes', signed['text'])
    d = region_diff(after_shot, run.expected['reloaded'], W, (0, 0, W, H), threshold=16) if after_shot else 1
    run.check('S19 nothing of the request stays on screen after it', d < 0.01, f'{100 * d:.3f}% of pixels differ from the screen without a request')
    busy, cancel, timed = run.said('requestbusy'), run.said('requestcancel'), run.said('requesttimeout')
    run.check('S20 one request at a time (Busy), CancelRequest, and a request nobody signs times out',
              busy.get('exit') == '2' and busy.get('told') == '1' and cancel.get('exit') == '0' and cancel.get('waiting') == '1' and
              cancel.get('status') == 'cancelled' and timed.get('exit') == '1' and timed.get('status') == 'timedOut',
              f"busy: {busy['text']}; cancel: {cancel['text']}; timeout: {timed['text']}")
    outsider = run.said('requestoutsider')
    run.check('S21 a caller outside the signpad-pos group is refused', outsider.get('exit') == '2' and outsider.get('denied') == '1', outsider['text'])
    killed = run.said('requestkilled')
    run.check('S22 a request under way when signpad is killed answers failed through GetResult after the restart',
              killed.get('status') == 'failed' and int(killed.get('restarts', 0)) > int(killed.get('restarts_before', 0)), killed['text'])
