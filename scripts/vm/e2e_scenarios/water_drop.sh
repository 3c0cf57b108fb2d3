# A drop of water lands in the box and stays: past the idle timeout its dot is wiped and it is let
# go of, and a finger signing meanwhile is drawn as on a dry panel.
: > /tmp/signpad.log
: > /run/uinput.pids
panel=$(uinput_node /share/water-down.evemu /tmp/evemu-water.out)
start_signpad --set 'input.device="signpad demo touchscreen"' --set kiosk.idle_timeout=3
evemu-play "$panel" < /share/water-down.evemu
sleep 0.5
ask "screendump water-dot"
for i in $(seq 60); do grep -q "down and still at the idle timeout" /tmp/signpad.log && break; sleep 0.1; done
evemu-play "$panel" < /share/signature-second-finger.evemu
sleep 0.5
ask "screendump water-signed"
evemu-play "$panel" < /share/water-up.evemu
sleep 0.3
say "WATER letgo=$(grep -c 'down and still at the idle timeout' /tmp/signpad.log) alive=$(alive)"
stop_signpad
kill $(cat /run/uinput.pids) 2>/dev/null
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
