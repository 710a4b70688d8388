import { describe, expect, it } from "vitest";
import {
  DEFAULT_PUSH_POLICY,
  isPrivateHost,
  pushPolicyFromList,
  pushUrlProblem,
} from "../../../src/a2a/server/push-policy.js";

describe("where push notifications may go", () => {
  it("allows any public http(s) host by default, and nothing else", () => {
    for (const url of [
      "https://hooks.example.com/a2a",
      "http://93.184.216.34:8080/x",
      "https://[2606:4700::1]/x",
    ])
      expect(pushUrlProblem(url, DEFAULT_PUSH_POLICY), url).toBeNull();
    expect(pushUrlProblem("ftp://example.com/x", DEFAULT_PUSH_POLICY)).toMatch(/not http/);
    expect(pushUrlProblem("/relative", DEFAULT_PUSH_POLICY)).toMatch(/not an absolute URL/);
    expect(pushUrlProblem("https://user:pw@example.com/", DEFAULT_PUSH_POLICY)).toMatch(/credentials/);
    expect(pushUrlProblem(`https://example.com/${"x".repeat(2048)}`, DEFAULT_PUSH_POLICY)).toMatch(/longer/);
  });

  it("refuses loopback, private, link-local and local names however they are spelled", () => {
    for (const url of [
      "http://localhost:8888/webhook",
      "http://LOCALHOST./x",
      "http://api.localhost/x",
      "http://printer.local/x",
      "http://metadata.internal/x",
      "http://127.0.0.1/x",
      "http://2130706433/x",
      "http://0x7f.1/x",
      "http://10.1.2.3/x",
      "http://172.20.0.1/x",
      "http://192.168.1.1/x",
      "http://169.254.169.254/latest/meta-data",
      "http://100.64.0.1/x",
      "http://0.0.0.0/x",
      "http://[::1]/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://[fd00::1]/x",
      "http://[fe80::1]/x",
    ])
      expect(pushUrlProblem(url, DEFAULT_PUSH_POLICY), url).toMatch(/private, loopback or link-local/);
    expect(isPrivateHost("172.32.0.1")).toBe(false);
    expect(isPrivateHost("example.com")).toBe(false);
  });

  it("reads the A2A_PUSH_HOSTS list: named hosts (private ones too), subdomain patterns, and * for any public host", () => {
    const dev = pushPolicyFromList(" *, localhost ,127.0.0.1");
    expect(pushUrlProblem("http://localhost:8888/webhook", dev)).toBeNull();
    expect(pushUrlProblem("http://127.0.0.1:1234/x", dev)).toBeNull();
    expect(pushUrlProblem("https://example.com/x", dev)).toBeNull();
    expect(pushUrlProblem("http://10.0.0.1/x", dev)).toMatch(/private/);

    const only = pushPolicyFromList("*.hooks.example, partner.example");
    expect(pushUrlProblem("https://a.hooks.example/x", only)).toBeNull();
    expect(pushUrlProblem("https://partner.example/x", only)).toBeNull();
    expect(pushUrlProblem("https://hooks.example/x", only)).toMatch(/not among the hosts/);
    expect(pushUrlProblem("https://evil.example/x", only)).toMatch(/not among the hosts/);
    expect(pushPolicyFromList(undefined)).toEqual(DEFAULT_PUSH_POLICY);
    expect(pushPolicyFromList(" , ")).toEqual(DEFAULT_PUSH_POLICY);
  });
});
