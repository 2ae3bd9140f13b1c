import { describe, expect, it } from 'vitest';
import { classifyHost, type AddressClass } from './address-class';

/** Every host is written as a URL would carry it, and classified as the URL parser leaves it. */
const hostOf = (spelling: string): string => new URL(`http://${spelling}/`).hostname;

const table: [string, AddressClass][] = [
  // link-local, where cloud metadata services live, in every IPv4 spelling the URL parser accepts
  ['169.254.169.254', 'link-local'],
  ['0xa9fea9fe', 'link-local'],
  ['2852039166', 'link-local'],
  ['0251.0376.0251.0376', 'link-local'],
  ['169.254.43518', 'link-local'],
  ['0xa9.0xfe.0xa9.0xfe', 'link-local'],
  ['[::ffff:169.254.169.254]', 'link-local'],
  ['[::ffff:a9fe:a9fe]', 'link-local'],
  ['[64:ff9b::a9fe:a9fe]', 'link-local'],
  ['[2002:a9fe:a9fe::1]', 'link-local'],
  ['[fe80::1]', 'link-local'],
  ['[fd00:ec2::254]', 'link-local'],
  // private ranges
  ['10.0.0.5', 'private'],
  ['0x0a000005', 'private'],
  ['172.16.0.1', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'private'],
  ['[fd12:3456::1]', 'private'],
  ['[::ffff:10.0.0.5]', 'private'],
  ['[64:ff9b::10.0.0.5]', 'private'],
  ['192.0.2.1', 'private'],
  // loopback
  ['127.0.0.1', 'local'],
  ['127.1', 'local'],
  ['0x7f000001', 'local'],
  ['[::1]', 'local'],
  ['[::ffff:127.0.0.1]', 'local'],
  ['localhost', 'local'],
  ['api.localhost', 'local'],
  ['localhost.', 'local'],
  // the unspecified address: a connection to it lands on this machine (issue 38), in every
  // spelling the URL parser accepts, v4 and v6, mapped, translated and embedded
  ['0.0.0.0', 'local'],
  ['0', 'local'],
  ['00', 'local'],
  ['0x0', 'local'],
  ['0.0', 'local'],
  ['000.000.000.000', 'local'],
  ['0x0.0x0.0x0.0x0', 'local'],
  ['0.0.0.0.', 'local'],
  ['0.1.2.3', 'local'],
  ['[::]', 'local'],
  ['[0:0:0:0:0:0:0:0]', 'local'],
  ['[::0.0.0.0]', 'local'],
  ['[::ffff:0:0]', 'local'],
  ['[::ffff:0.0.0.0]', 'local'],
  ['[0:0:0:0:0:ffff:0:0]', 'local'],
  ['[::ffff:0:0:0]', 'local'],
  ['[64:ff9b::]', 'local'],
  ['[2002::]', 'local'],
  // loopback embedded in the IPv4-compatible and IPv4-translated forms
  ['[::127.0.0.1]', 'local'],
  ['[::ffff:0:127.0.0.1]', 'local'],
  ['[::169.254.169.254]', 'link-local'],
  // names: private by definition or use, and the cloud metadata names
  ['metadata.google.internal', 'link-local'],
  ['METADATA.GOOGLE.INTERNAL.', 'link-local'],
  ['metadata.goog', 'link-local'],
  ['metadata', 'link-local'],
  ['instance-data', 'link-local'],
  ['instance-data.ec2.internal', 'link-local'],
  ['printer.local', 'private'],
  ['db.corp.internal', 'private'],
  ['nas.home.arpa', 'private'],
  ['router.lan', 'private'],
  ['internal.example.com', 'public'],
  ['local.example.com', 'public'],
  ['example.lan.example.com', 'public'],
  // public
  ['8.8.8.8', 'public'],
  ['[2606:4700::1111]', 'public'],
  ['[::ffff:8.8.8.8]', 'public'],
  ['[64:ff9b::808:808]', 'public'],
  ['example.com', 'public'],
];

describe('classifyHost', () => {
  it.each(table)('%s is %s', (spelling, expected) => {
    expect(classifyHost(hostOf(spelling))).toBe(expected);
  });
});

describe('classifyHost, exported (rcp-oauth checks its token endpoint with it)', () => {
  it("is the boundary's own classifier, as its example says", async () => {
    const { classifyHost: exported } = await import('../../index');
    expect(exported).toBe(classifyHost);
    expect(exported(new URL('http://[::ffff:169.254.169.254]/').hostname)).toBe('link-local');
    expect(exported('metadata.google.internal')).toBe('link-local');
    expect(exported('127.0.0.1')).toBe('local');
    expect(exported('auth.corp.internal')).toBe('private');
  });
});
