# At start, a configuration that does not fit this kiosk (a mode the panel lacks, a background
# image that does not load) ends signpad with status 78 (EX_CONFIG), as one that does not load
# does, which the unit does not restart.
: > /tmp/signpad.log
signpad run --config /etc/signpad/signpad.toml --set 'display.mode="1234x567"' >>/tmp/signpad.log 2>&1; mode=$?
signpad run --config /etc/signpad/signpad.toml --set 'kiosk.background_image="/share/no-such-brand.png"' >>/tmp/signpad.log 2>&1; image=$?
signpad run --config /etc/signpad/signpad.toml --set 'display.rotation=45' >>/tmp/signpad.log 2>&1; unloadable=$?
say "MISFIT mode=$mode image=$image unloadable=$unloadable"
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
