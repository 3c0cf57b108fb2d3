# The bench on the panel itself: every strategy presents to the dumb buffer and calls DirtyFB.
signpad bench --on-screen --config /etc/signpad/signpad.toml --recording /share/signature.evemu > /tmp/bench.txt 2>&1
say "BENCH EXIT $?"
say "PHASE bench"
say "FILE bench.txt"; base64 /tmp/bench.txt; say "END"
# SIGTERM (or Ctrl-C) in the middle of `bench --on-screen`: the run ends early and hands the
# console back in text mode, so what is then written to it shows. (A process the signal ended
# while it held the screen would leave the console in graphics mode, where nothing written to it
# is drawn. SIGTERM, as a background job of this shell ignores SIGINT.)
signpad bench --on-screen --config /etc/signpad/signpad.toml --recording /share/signature.evemu > /tmp/bench-stopped.txt 2>&1 &
bench_pid=$!
for i in $(seq 100); do grep -q "signpad: display" /tmp/bench-stopped.txt && break; sleep 0.1; done
sleep 0.5
kill -TERM $bench_pid
wait $bench_pid
say "BENCH STOPPED EXIT $?"
sleep 0.5
ask "screendump console-before"
printf '\033[2J\033[H' > /dev/tty0
for i in $(seq 20); do echo "################ the console is back ################" > /dev/tty0; done
sleep 0.5
ask "screendump console-after"
say "FILE bench-stopped.txt"; base64 /tmp/bench-stopped.txt; say "END"
