# Another panel, without a mode of the kiosk's size, plugged in where the kiosk's was (virtio-gpu
# only: QEMU changes its modes when a VNC viewer resizes the display): signpad lets the display go
# and takes it anew at the new panel's size, with the touch panel mapped to it.
say "resize 1000x700"; read -r resized
if [ "$resized" = ok ]; then
    : > /tmp/signpad.log
    start_signpad --set 'input.device="signpad demo touchscreen"' --set 'display.mode=""'
    ask "screendump other-panel"
    echo off > "$status"
    for i in $(seq 50); do grep -q "reports no panel" /tmp/signpad.log && break; sleep 0.1; done
    ask "resize 1024x768"
    echo detect > "$status"
    for i in $(seq 150); do [ "$(grep -c "ready:" /tmp/signpad.log)" -ge 2 ] && break; sleep 0.1; done
    sleep 0.5
    say "NEWPANEL without=$(grep -c "again, without the mode" /tmp/signpad.log) lost=$(grep -c "the display is lost" /tmp/signpad.log) ready=$(grep -c "ready:" /tmp/signpad.log) alive=$(alive)"
    ask "screendump taken-anew"
    play /share/signature.evemu
    ask "screendump anew-signed"
    stop_signpad
    say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
    # With the mode named in the configuration, a panel without it is waited out: signpad stays
    # up, names the mode it waits for, and takes the panel that has it when that is back.
    : > /tmp/signpad.log
    say "resize 1000x700"; read -r resized
    start_signpad --set 'input.device="signpad demo touchscreen"' --set 'display.mode="1000x700"'
    echo off > "$status"
    for i in $(seq 50); do grep -q "reports no panel" /tmp/signpad.log && break; sleep 0.1; done
    ask "resize 1024x768"
    echo detect > "$status"
    for i in $(seq 100); do grep "waiting for a display" /tmp/signpad.log | grep -q 1000x700 && break; sleep 0.1; done
    # Past the next try, which must wait again rather than fail.
    sleep 2.5
    waited=$(grep "waiting for a display" /tmp/signpad.log | grep -c 1000x700) waiting_alive=$(alive)
    echo off > "$status"
    ask "resize 1000x700"
    echo detect > "$status"
    for i in $(seq 150); do [ "$(grep -c "ready:" /tmp/signpad.log)" -ge 2 ] && break; sleep 0.1; done
    sleep 0.5
    say "PINNED waited=$waited alive=$waiting_alive ready=$(grep -c "ready:" /tmp/signpad.log)"
    ask "screendump pinned-back"
    stop_signpad
    say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
    say "resize 1024x768"; read -r resized
fi
