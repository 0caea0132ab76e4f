import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "../../tests/setup/moto-server";
import { setUpCaddy } from "./caddy";
import type { ContainerEngine } from "./container-engine";

/**
 * A Docker host as `dockerd --tlsverify` serves one (port 2376, TLS, only clients holding a certificate its CA
 * signed), for the tests of the container host's "URL with TLS certificates" method: a real Caddy terminates TLS
 * with client authentication in front of the test engine's socket. The certificates are made with openssl as
 * Docker's documentation makes them: a CA, the host's certificate for `localhost`, a client certificate; and a
 * stranger's client certificate from another CA, which the host refuses.
 */
export type TlsDockerHost = {
  /** `tcp://localhost:PORT`: Docker's way of writing a TLS host (DOCKER_TLS_VERIFY on). */
  readonly dockerHost: string;
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
  /** A client certificate and key another CA signed. */
  readonly strangerCert: string;
  readonly strangerKey: string;
};

function openssl(dir: string, ...args: string[]) {
  const run = spawnSync("openssl", args, { cwd: dir, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`openssl ${args.join(" ")} failed: ${run.stderr}`);
}

/** A CA (`name`.pem, `name`.key) and a certificate it signs (`leaf`.pem, `leaf`.key) with `extensions`. */
function certify(dir: string, ca: string, leaf: string, subject: string, extensions: string) {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(dir, "req", "-new", ...ec, "-keyout", `${leaf}.key`, "-out", `${leaf}.csr`, "-subj", subject);
  writeFileSync(path.join(dir, `${leaf}.ext`), extensions);
  openssl(
    dir,
    ...["x509", "-req", "-in", `${leaf}.csr`, "-CA", `${ca}.pem`, "-CAkey", `${ca}.key`, "-CAcreateserial"],
    ...["-out", `${leaf}.pem`, "-days", "2", "-extfile", `${leaf}.ext`],
  );
}

function authority(dir: string, name: string) {
  openssl(
    dir,
    ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
    ...["-keyout", `${name}.key`, "-out", `${name}.pem`, "-days", "2", "-subj", `/CN=${name}`],
  );
}

export function setUpTlsDockerHost(engine: ContainerEngine): TlsDockerHost {
  const caddy = setUpCaddy();
  let dir = "";
  const host = { dockerHost: "", ca: "", cert: "", key: "", strangerCert: "", strangerKey: "" };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "tls-docker-host-"));
    authority(dir, "ca");
    certify(
      dir,
      "ca",
      "server",
      "/CN=localhost",
      "subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n",
    );
    certify(dir, "ca", "client", "/CN=client", "extendedKeyUsage=clientAuth\n");
    authority(dir, "stranger-ca");
    certify(dir, "stranger-ca", "stranger", "/CN=stranger", "extendedKeyUsage=clientAuth\n");
    const read = (name: string) => readFileSync(path.join(dir, name), "utf8");
    const der = (pem: string) => pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
    const port = await freePort();
    const config = {
      admin: { listen: new URL(caddy.adminUrl).host },
      apps: {
        tls: { certificates: { load_pem: [{ certificate: read("server.pem"), key: read("server.key") }] } },
        http: {
          servers: {
            docker: {
              listen: [`127.0.0.1:${port}`],
              automatic_https: { disable: true },
              tls_connection_policies: [
                {
                  client_authentication: {
                    trusted_ca_certs: [der(read("ca.pem"))],
                    mode: "require_and_verify",
                  },
                },
              ],
              routes: [
                {
                  handle: [
                    {
                      handler: "reverse_proxy",
                      flush_interval: -1,
                      upstreams: [{ dial: `unix/${engine.socketPath}` }],
                    },
                  ],
                },
              ],
            },
          },
        },
      },
    };
    const loaded = await fetch(`${caddy.adminUrl}/load`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(config),
    });
    if (!loaded.ok) throw new Error(`caddy refused the TLS host's config: ${await loaded.text()}`);
    Object.assign(host, {
      dockerHost: `tcp://localhost:${port}`,
      ca: read("ca.pem"),
      cert: read("client.pem"),
      key: read("client.key"),
      strangerCert: read("stranger.pem"),
      strangerKey: read("stranger.key"),
    });
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  return host;
}
