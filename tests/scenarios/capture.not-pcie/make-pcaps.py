#!/usr/bin/env python3
"""make-pcaps.py: the capture.not-pcie scenarios, built with
tests/net/make-net.py's packet builders (run from this directory):
  fire.pcap  Ethernet: a NetTLP MWr (LibTLP's posted write), an ARP request
             and a DNS query between the LibTLP host and the adapter
  miss.pcap  the same NetTLP datagram alone"""
import importlib.util
import os

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "make_net", os.path.join(here, "..", "..", "net", "make-net.py"))
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)

mwr = m.ether(0x0800, m.datagrams4()[2])
dns = m.ether(0x0800, m.others4()[1])
m.write_pcap(os.path.join(here, "fire.pcap"), 1, [m.arp(), mwr, dns])
m.write_pcap(os.path.join(here, "miss.pcap"), 1, [mwr])
