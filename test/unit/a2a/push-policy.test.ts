import { describe, expect, it } from "vitest";
import {
  addressProblem,
  DEFAULT_PUSH_POLICY,
  isPrivateHost,
  pushPolicyFromList,
  pushUrlProblem,
} from "../../../src/a2a/server/push-policy.js";

describe("where push notifications may go", () => {
  it("allows https to any public IP address by default, and nothing else", () => {
    for (const url of ["https://93.184.216.34:8080/x", "https://[2606:4700::1]/x"])
      expect(pushUrlProblem(url, DEFAULT_PUSH_POLICY), url).toBeNull();
    expect(pushUrlProblem("ftp://example.com/x", DEFAULT_PUSH_POLICY)).toMatch(/not http/);
    expect(pushUrlProblem("/relative", DEFAULT_PUSH_POLICY)).toMatch(/not an absolute URL/);
    expect(pushUrlProblem("https://user:pw@example.com/", DEFAULT_PUSH_POLICY)).toMatch(/credentials/);
    expect(pushUrlProblem(`https://example.com/${"x".repeat(2048)}`, DEFAULT_PUSH_POLICY)).toMatch(/longer/);
  });

  it("refuses a host name that * alone would have to cover: where a name leads is not known here", () => {
    expect(pushUrlProblem("https://hooks.example.com/a2a", DEFAULT_PUSH_POLICY)).toMatch(
      /hooks\.example\.com is a host name, which `\*` does not cover/,
    );
    const named = pushPolicyFromList("*, hooks.example.com, *.partner.example");
    expect(pushUrlProblem("https://hooks.example.com/a2a", named)).toBeNull();
    expect(pushUrlProblem("https://a.partner.example/a2a", named)).toBeNull();
    expect(pushUrlProblem("https://partner.example/a2a", named)).toMatch(/does not cover/);
  });

  it("sends http: only to a host the policy names, exactly or by its domain", () => {
    expect(pushUrlProblem("http://93.184.216.34/x", DEFAULT_PUSH_POLICY)).toMatch(
      /http: goes only to a host/,
    );
    const named = pushPolicyFromList("*, 93.184.216.34, *.partner.example");
    expect(pushUrlProblem("http://93.184.216.34/x", named)).toBeNull();
    expect(pushUrlProblem("http://a.partner.example/x", named)).toBeNull();
    expect(pushUrlProblem("http://93.184.216.35/x", named)).toMatch(/use https:/);
  });

  it("refuses loopback, private, link-local and local names however they are spelled", () => {
    for (const url of [
      "https://localhost:8888/webhook",
      "https://LOCALHOST./x",
      "https://api.localhost/x",
      "https://printer.local/x",
      "https://metadata.internal/x",
      "https://vm:19300/x",
      "https://127.0.0.1/x",
      "https://2130706433/x",
      "https://0x7f.1/x",
      "https://10.1.2.3/x",
      "https://172.20.0.1/x",
      "https://192.168.1.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/x",
      "https://0.0.0.0/x",
      "https://198.18.0.1/x",
      "https://[::1]/x",
      "https://[::]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://[::ffff:10.0.0.1]/x",
      "https://[::7f00:1]/x",
      "https://[::127.0.0.1]/x",
      "https://[::ffff:0:7f00:1]/x",
      "https://[64:ff9b::7f00:1]/x",
      "https://[64:ff9b::a9fe:a9fe]/x",
      "https://[2002:7f00:1::1]/x",
      "https://[2002:c0a8:101::1]/x",
      "https://[fd00::1]/x",
      "https://[fe80::1]/x",
      "https://[fec0::1]/x",
      "https://[ff02::1]/x",
      "https://[2001:0:4136:e378::1]/x",
    ])
      expect(pushUrlProblem(url, DEFAULT_PUSH_POLICY), url).toMatch(/private, loopback or link-local/);
    expect(isPrivateHost("172.32.0.1")).toBe(false);
    expect(isPrivateHost("example.com")).toBe(false);
    expect(isPrivateHost("2606:4700::1")).toBe(false);
    expect(isPrivateHost("[64:ff9b::5db8:d822]")).toBe(false);
    expect(isPrivateHost("[2002:5db8:d822::1]")).toBe(false);
  });

  it("reads the A2A_PUSH_HOSTS list: exact names (private ones too), domain patterns, and * for public addresses", () => {
    const dev = pushPolicyFromList(" *, localhost ,127.0.0.1");
    expect(pushUrlProblem("http://localhost:8888/webhook", dev)).toBeNull();
    expect(pushUrlProblem("http://127.0.0.1:1234/x", dev)).toBeNull();
    expect(pushUrlProblem("http://vm:19300/x", dev)).toMatch(/http: goes only/);
    expect(pushUrlProblem("https://vm:19300/x", dev)).toMatch(/private/);
    expect(pushUrlProblem("https://10.0.0.1/x", dev)).toMatch(/private/);
    expect(pushUrlProblem("https://[::7f00:1]/x", dev)).toMatch(/private/);

    const only = pushPolicyFromList("*.hooks.example, partner.example");
    expect(pushUrlProblem("https://a.hooks.example/x", only)).toBeNull();
    expect(pushUrlProblem("https://partner.example/x", only)).toBeNull();
    expect(pushUrlProblem("https://hooks.example/x", only)).toMatch(/not among the hosts/);
    expect(pushUrlProblem("https://evil.example/x", only)).toMatch(/not among the hosts/);
    expect(pushUrlProblem("https://x.local/x", pushPolicyFromList("*.local"))).toMatch(/private/);
    expect(pushPolicyFromList(undefined)).toEqual(DEFAULT_PUSH_POLICY);
    expect(pushPolicyFromList(" , ")).toEqual(DEFAULT_PUSH_POLICY);
  });

  it("lets a resolved address be private only when it, or the local name that led to it, is named", () => {
    const policy = pushPolicyFromList("*, hooks.example.com, localhost, vm, 10.0.0.7");
    expect(addressProblem("hooks.example.com", "93.184.216.34", policy)).toBeNull();
    expect(addressProblem("hooks.example.com", "127.0.0.1", policy)).toMatch(
      /hooks\.example\.com resolves to 127\.0\.0\.1/,
    );
    expect(addressProblem("hooks.example.com", "::ffff:7f00:1", policy)).toMatch(/resolves to/);
    expect(addressProblem("hooks.example.com", "10.0.0.7", policy)).toBeNull();
    expect(addressProblem("localhost", "127.0.0.1", policy)).toBeNull();
    expect(addressProblem("localhost", "::1", policy)).toBeNull();
    expect(addressProblem("vm", "192.168.1.9", policy)).toBeNull();
    expect(addressProblem("other", "192.168.1.9", policy)).toMatch(/resolves to/);
  });
});
