# The end of the run: the journal for the host checks, then DONE, then the VM goes down.
# Every line signpad wrote to the journal in the whole run, refusals and stops too, is short.
journalctl -u signpad SYSLOG_IDENTIFIER=signpad -o cat --no-pager > /run/journal-lines.txt
longest=$(awk '{ if (length > n) n = length } END { print n + 0 }' /run/journal-lines.txt)
say "CHECK journalwhole longest $longest lines $(wc -l < /run/journal-lines.txt)"
say "STATUS longestline $(awk -v n="$longest" 'length == n { print; exit }' /run/journal-lines.txt)"
say "LOG BEGIN"
journal
say "LOG END"
say "DONE"
systemctl poweroff
