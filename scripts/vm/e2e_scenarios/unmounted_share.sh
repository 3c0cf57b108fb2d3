# A share not mounted yet, with export.create_directory = false and the folder inside it: nothing
# is made on local disk under the mount point; the signature waits in the spool and is written to
# the share once it is mounted.
mkdir -p /share-mount
: > /tmp/signpad.log
start_signpad --set 'input.device="signpad demo touchscreen"' --set 'export.directory="/share-mount/signatures"' --set export.create_directory=false
play /share/signature.evemu
play /share/tap-done.evemu
say "UNMOUNTED local=$(ls -A /share-mount | wc -l) spool=$(ls /var/lib/signpad/spool | grep -c 'spool.json$') missing=$(grep -c 'the export folder is missing' /tmp/signpad.log) alive=$(alive)"
mount -t tmpfs share /share-mount
mkdir /share-mount/signatures
for i in $(seq 100); do ls /share-mount/signatures/*.meta.json >/dev/null 2>&1 && break; sleep 0.1; done
sleep 0.5
mounted=$(ls /share-mount/signatures | wc -l)
umount /share-mount
say "UNMOUNTED MOUNTED share=$mounted local=$(ls -A /share-mount | wc -l) spool=$(ls /var/lib/signpad/spool | grep -c 'spool.json$') alive=$(alive)"
stop_signpad
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
