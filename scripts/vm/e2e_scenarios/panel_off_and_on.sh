# The panel is switched off and on again, as a DisplayPort panel drops its hot-plug line when
# powered off (here the kernel's connector status is forced): signpad turns the output off, keeps
# the kiosk and its ink, and sets the mode again when the panel is back.
status=$(ls /sys/class/drm/card*-Virtual-1/status | head -1)
echo off > "$status"
for i in $(seq 50); do grep -q "reports no panel" /tmp/signpad.log && break; sleep 0.1; done
sleep 0.5
ask "screendump panel-off"
echo detect > "$status"
for i in $(seq 50); do grep -q "has a panel again" /tmp/signpad.log && break; sleep 0.1; done
sleep 0.5
say "PANEL off=$(grep -c "reports no panel" /tmp/signpad.log) back=$(grep -c "set again" /tmp/signpad.log) status=$(cat "$status") alive=$(alive)"
ask "screendump panel-on"
