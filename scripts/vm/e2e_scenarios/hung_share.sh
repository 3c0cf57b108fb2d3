# A network share whose server does not answer at boot: the export folder's first mkdir hangs for
# 30 s (strace holds it). signpad is up and signs all the same; a signature confirmed meanwhile is
# in the spool at once, and in the folder once the folder answers.
: > /tmp/signpad.log
wrap="strace -f --seccomp-bpf -qq -o /dev/null -P /export-late -e trace=mkdir -e inject=mkdir:delay_enter=30000000:when=1"
start_signpad --set 'input.device="signpad demo touchscreen"' --set 'export.directory="/export-late"'
wrap=
# Stopped itself, not strace: strace would leave it running, holding the screen.
pidof signpad > /run/signpad.pid
play /share/signature.evemu
play /share/tap-done.evemu
say "HUNG ready=$(grep -c "ready:" /tmp/signpad.log) spool=$(ls /var/lib/signpad/spool | grep -c 'spool.json$') exports=$(ls /export-late 2>/dev/null | wc -l) alive=$(alive)"
for i in $(seq 400); do ls /export-late/*.meta.json >/dev/null 2>&1 && break; sleep 0.1; done
sleep 0.5
say "HUNG ANSWERED spool=$(ls /var/lib/signpad/spool | grep -c 'spool.json$') exports=$(ls /export-late 2>/dev/null | wc -l) alive=$(alive)"
stop_signpad
rm -rf /export-late
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
