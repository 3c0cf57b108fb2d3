# Without input.device: the usb-tablet, an absolute pointer (as a BMC's virtual mouse is), is all
# there is, so signpad takes it; a touchscreen that appears is taken in its place between customers.
: > /tmp/signpad.log
start_signpad
first=$(grep 'input device taken' /tmp/signpad.log | head -1 | sed -n 's/.*as=\([a-z-]*\) .*/\1/p')
play /share/signature.evemu
say "AUTO first=$first replaced=$(grep -c 'in place of the absolute pointer' /tmp/signpad.log) touchscreen=$(taken touchscreen 'signpad demo touchscreen') alive=$(alive)"
ask "screendump auto-signed"
stop_signpad
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
