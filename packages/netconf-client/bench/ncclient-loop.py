"""The python3-ncclient side of bench/roundtrip.bench.ts: one session, one small <get> per stdin line."""
import os
import sys

from ncclient import manager

FILTER = ('subtree', '<modules-state xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-library"><module-set-id/></modules-state>')

m = manager.connect(
    host=os.environ["NETCONF_HOST"],
    port=int(os.environ.get("NETCONF_PORT", "830")),
    username=os.environ.get("NETCONF_USER", "netconf"),
    password=os.environ.get("NETCONF_PASSWORD", "netconf"),
    hostkey_verify=False,
    look_for_keys=False,
    allow_agent=False,
)
sys.stdout.write("ready\n")
sys.stdout.flush()
for line in sys.stdin:
    if line.strip() == "quit":
        break
    reply = m.get(filter=FILTER)
    sys.stdout.write("ok %d\n" % len(reply.xml))
    sys.stdout.flush()
m.close_session()
