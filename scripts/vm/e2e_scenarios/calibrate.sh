# Calibration on a panel that reads off by a known matrix: a cross for each target, one tap each.
evemu-device /share/calibration-taps.evemu > /tmp/evemu-device.out 2>&1 &
dev_pid=$!
for i in $(seq 50); do node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /tmp/evemu-device.out); [ -n "$node" ] && break; sleep 0.1; done
cp /etc/signpad/signpad.toml /tmp/config-before.toml
signpad calibrate --write --config /etc/signpad/signpad.toml --set 'input.device="signpad demo touchscreen"' --timeout 30 > /tmp/calibrate.txt 2>/tmp/calibrate.log &
cal_pid=$!
for i in $(seq 100); do grep -q "target 1 of" /tmp/calibrate.log && break; sleep 0.1; done
ask "screendump calibrating"
evemu-play "$node" < /share/calibration-taps.evemu
wait $cal_pid
say "CALIBRATE EXIT $?"
kill $dev_pid; wait $dev_pid 2>/dev/null
say "PHASE calibrate"
say "FILE calibrate.txt"; base64 /tmp/calibrate.txt; say "END"
say "FILE config-before.toml"; base64 /tmp/config-before.toml; say "END"
say "FILE config-after.toml"; base64 /etc/signpad/signpad.toml; say "END"
signpad check-config /etc/signpad/signpad.toml > /tmp/check-config.txt 2>&1
say "FILE check-config.txt"; base64 /tmp/check-config.txt; say "END"
say "LOG BEGIN"; cat /tmp/calibrate.log; say "LOG END"
