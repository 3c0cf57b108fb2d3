# The image holds the DRM driver back at boot (modprobe.d blacklists bochs and virtio_gpu) and
# loads it here: on a slow boot udev loads it after signpad has started, and signpad waits for
# the card and then shows it, the same process, with no restart.
if wait_for 120 running; then
    say "CHECK started $(state)"
else
    say "FAIL signpad.service is not active/running: $(state)"
fi
waiting_pid=$(prop MainPID)
say "STATUS waiting $(prop StatusText)"
modprobe -a bochs virtio_gpu
status_has 60 'showing '
say "CHECK latecard $(state) waited $waiting_pid"
first_pid=$(prop MainPID)
say "STATUS start $(prop StatusText)"
ask "screendump sd-initial"
say "CHECK console kdsetmode_failed $(logged "KDSETMODE") open_failed $(logged "to hide the console")"
