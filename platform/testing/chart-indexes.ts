/** An index as `helm repo index` writes it, two charts, versions in no particular order. */
export const sampleIndex = `apiVersion: v1
entries:
  nginx:
  - apiVersion: v2
    appVersion: 1.27.0
    created: "2026-01-10T12:00:00.000000000Z"
    description: NGINX Open Source is a web server
    digest: 2c9f0e3b
    icon: https://charts.example.test/nginx.png
    name: nginx
    urls:
    - https://charts.example.test/nginx-18.2.0.tgz
    version: 18.2.0
  - appVersion: 1.27.1
    description: NGINX Open Source is a web server
    name: nginx
    urls:
    - nginx-18.10.0.tgz
    version: 18.10.0
  - appVersion: 1.28.0-rc.1
    name: nginx
    urls:
    - nginx-19.0.0-rc.1.tgz
    version: 19.0.0-rc.1
  redis:
  - appVersion: "7.4"
    description: Redis
    deprecated: true
    name: redis
    urls:
    - redis-1.0.tgz
    version: 1.0
generated: "2026-01-12T08:00:00Z"
`;
