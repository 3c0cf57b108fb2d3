# The control socket's group edited to one that does not exist: a start would refuse it (78), and
# the unit does not restart after 78. The reload is refused, the same process keeps the screen and
# the socket, and the file is put back.
cp /etc/signpad/signpad.toml /run/signpad.toml.good
sed -i 's/^group = "signpad-pos"/group = "no-such-group"/' /etc/signpad/signpad.toml
refusals=$(logged "not reloading")
pid_before=$(prop MainPID)
systemctl reload signpad
reload_status=$?
wait_for 30 above "$refusals" logged "not reloading"
sleep 2
answers=silent
signpad request --socket /run/signpad/control.sock --status > /dev/null 2>&1 && answers=yes
say "CHECK refusedreload $(state) status $reload_status refused $(( $(logged "not reloading") - refusals )) before $pid_before socket $answers"
ask "screendump sd-refused-reload"
cp /run/signpad.toml.good /etc/signpad/signpad.toml
