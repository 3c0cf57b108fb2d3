# The display goes away (as a USB display unplugged, or a driver unbound) and comes back: signpad
# notices, waits for a display again and draws the kiosk on it; the touch device is taken again.
gpu=$(readlink -f /sys/class/drm/card0/device)
echo 1 > "$gpu/remove"
for i in $(seq 100); do grep -q "the display is lost" /tmp/signpad.log && break; sleep 0.1; done
say "REPLUG gone=$(grep -c "the display is lost" /tmp/signpad.log) alive=$(alive)"
echo 1 > /sys/bus/pci/rescan
for i in $(seq 150); do [ "$(grep -c "ready:" /tmp/signpad.log)" -ge 2 ] && break; sleep 0.1; done
sleep 0.5
say "REPLUG ready=$(grep -c "ready:" /tmp/signpad.log) cards=[$(ls /dev/dri | tr '\n' ' ')]"
ask "screendump replugged"
