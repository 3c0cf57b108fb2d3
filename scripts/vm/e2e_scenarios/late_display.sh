# No DRM card yet: signpad waits for one (and tells systemd it is up), then takes it when it comes.
signpad run --config /etc/signpad/signpad.toml --set 'input.device="signpad demo touchscreen"' >>/tmp/signpad.log 2>&1 &
echo $! > /run/signpad.pid
for i in $(seq 100); do grep -q "waiting for a display" /tmp/signpad.log && break; sleep 0.1; done
sleep 2.5
say "LATE DISPLAY cards=[$(ls /dev/dri 2>/dev/null | tr '\n' ' ')] alive=$(alive) waiting=$(grep -c "waiting for a display" /tmp/signpad.log)"
load_display_driver
for i in $(seq 100); do grep -q "ready:" /tmp/signpad.log && break; sleep 0.1; done
grep -q "ready:" /tmp/signpad.log || { say "FAIL signpad did not take the display that came late"; cat /tmp/signpad.log; poweroff -f; }
say "LATE DISPLAY ready=$(grep -c "ready:" /tmp/signpad.log)"
ask "screendump initial"
