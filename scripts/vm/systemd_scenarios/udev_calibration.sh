# One device calibrated through udev, as the README says for a pen and a touchscreen that need
# different matrices: signpad calibrate on a panel that reads off by a known matrix prints a rule
# for that device; installed, udev gives the device the matrix, and signpad reads it from there.
evemu-device /usr/share/signpad-vm/calibration-taps.evemu > /run/evemu-calibration.out 2>&1 &
taps_pid=$!
wait_for 5 grep -q '/dev/input/event' /run/evemu-calibration.out
node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /run/evemu-calibration.out)
signpad calibrate --config /etc/signpad/signpad.toml --set 'input.device="signpad demo touchscreen"' --timeout 30 \
    > /run/calibrate.txt 2> /run/calibrate.log &
calibrate_pid=$!
wait_for 20 grep -q "target 1 of" /run/calibrate.log
evemu-play "$node" < /usr/share/signpad-vm/calibration-taps.evemu
wait "$calibrate_pid"
calibrate_exit=$?
grep '^SUBSYSTEM==' /run/calibrate.txt > /etc/udev/rules.d/99-signpad-calibration.rules
udevadm trigger --subsystem-match=input --action=change
udevadm settle
read -r -a seen < <(signpad devices | awk '/^Device: +signpad demo touchscreen$/ { here = 1 } here && /^Calibration:/ { print; exit } /^$/ { here = 0 }')
values=$(IFS=,; echo "${seen[*]:1:6}")
say "CHECK udevrule exit $calibrate_exit rules $(wc -l < /etc/udev/rules.d/99-signpad-calibration.rules) calibration ${values:-none} source ${seen[7]:-none}"
kill "$taps_pid"; wait "$taps_pid" 2>/dev/null
