"""The Pico W's access point: the firmware's only import of ``network``, made when Phones is
switched on (``boot._access_point``), never in a boot without it.

The network is the gadget's own: "Tablemate-" and four hex digits of the board's unique id (two
gadgets at neighbouring tables have different names), WPA2 (the driver's default for an access
point with a key) with the password ``phones/run.py`` drew once and ``store/phones.py`` keeps.
The address is the port's default for an access point, 192.168.4.1; MicroPython's DHCP server
(``shared/netutils/dhcpserver.c``, ``DHCPS_MAX_IP``) leases at most 8 addresses, from .16 on:
a ninth phone joins the network but gets no address, and its phone says so
(README, "Phones").
"""

from binascii import hexlify

import network
from machine import unique_id

PORT = 80


class AccessPoint:
    """The access point's settings and its radio, for ``phones.run``."""

    def __init__(self):
        self.wlan = None

    def ssid(self):
        return "Tablemate-" + hexlify(unique_id()[-2:]).decode().upper()

    def start(self, ssid, password):
        """Bring the access point up: ``(host, port, url)`` of the server; OSError when the
        radio does not start."""
        wlan = network.WLAN(network.AP_IF)
        wlan.config(ssid=ssid, key=password)
        wlan.active(True)
        if not wlan.active():
            raise OSError("radio")
        self.wlan = wlan
        host = wlan.ifconfig()[0]
        return host, PORT, "http://%s/" % host

    def stop(self):
        if self.wlan is not None:
            self.wlan.active(False)
            self.wlan = None

    def stations(self):
        """How many phones joined the network (associated stations)."""
        return len(self.wlan.status("stations")) if self.wlan is not None else None
