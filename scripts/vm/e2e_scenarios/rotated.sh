# A portrait-mounted panel (display.rotation = 90): the kiosk is drawn turned through the dumb
# buffer and DirtyFB's clips, and the touches are turned with it, so the ink lands under the finger.
: > /tmp/signpad.log
start_signpad --set 'input.device="signpad demo touchscreen"' --set display.rotation=90
play /share/signature.evemu
ask "screendump rotated"
say "ROTATED turned=$(grep -c 'rotation=90' /tmp/signpad.log) alive=$(alive)"
stop_signpad
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
