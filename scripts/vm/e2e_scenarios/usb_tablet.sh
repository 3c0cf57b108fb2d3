: > /tmp/signpad.log
start_signpad --set 'input.device="QEMU QEMU USB Tablet"'
ask "tablet draw"
sleep 1
ask "screendump tablet"
stop_signpad
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
