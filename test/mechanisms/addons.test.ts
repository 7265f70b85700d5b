// Add-ons' own pods (src/diagnosis/mechanisms/catalogue/addons.ts): the line an add-on prints when it cannot run,
// the mechanism it means for this pod's spec, and the knob (Helm value, ServiceAccount annotation, node package).
import { describe, expect, it } from 'vitest';
import { readTexts } from '../../src/diagnosis/mechanisms/index.js';
import { describeFamilies, scopeOf } from '../helpers/mechanism-table.js';

const EXTERNAL_DNS =
  'time="2024-01-28T09:41:17Z" level=error msg="records retrieval failed: failed to list hosted zones: AccessDenied: User: ' +
  'arn:aws:sts::xxxxxxxxxxxxxx:assumed-role/*****-ExternalDNS/1385464348772260040 is not authorized to perform: route53:ListHostedZones ' +
  'because no identity-based policy allows the route53:ListHostedZones action\\n\\tstatus code: 403, request id: b950a1aa-6e02-4ead-92a7-6a945e5f8ce4"';
const AUTOSCALER_NODE_ROLE =
  'F0322 18:48:28.218626       1 aws_cloud_provider.go:351] Failed to create AWS Manager: cannot autodiscover ASGs: AccessDenied: User: ' +
  'arn:aws:sts::849616654863:assumed-role/eksctl-gara-int-cluster-nodegroup-NodeInstanceRole-19QKQO25WZ3M9/i-0ee6bc34b33c65e12 is not authorized ' +
  'to perform: autoscaling:DescribeTags';
const EXTERNAL_DNS_LINK =
  'time="2022-12-16T22:07:25Z" level=fatal msg="flag parsing error: strconv.ParseFloat: parsing \\"tcp://10.96.220.48:7979\\": invalid syntax"';
const LONGHORN = 'time="2023-02-14T03:46:02Z" level=error msg="Failed environment check, please make sure you have iscsiadm/open-iscsi installed on the host"';

describeFamilies({
  'a cloud action the add-on role lacks': [
    {
      line: EXTERNAL_DNS,
      mechanism: 'cloud-permission-denied',
      variant: 'external-dns',
      knob: 'the IAM policy of the role in eks.amazonaws.com/role-arn',
      data: { action: 'route53:ListHostedZones' },
    },
    {
      line: AUTOSCALER_NODE_ROLE,
      mechanism: 'cloud-permission-denied',
      variant: 'node-instance-role',
      knob: 'metadata.annotations[eks.amazonaws.com/role-arn]',
      data: { action: 'autoscaling:DescribeTags' },
    },
    {
      line:
        'I0405 08:52:03.797003       1 factory.go:33] Scale-up failed for group rtl-di-eks-cluster-xxxxxxxxxx: AccessDenied: User: ' +
        'arn:aws:sts::12345678912345:assumed-role/ClusterAutoscalerRole/1554454 is not authorized to perform: autoscaling:SetDesiredCapacity',
      mechanism: 'cloud-permission-denied',
      variant: 'cluster-autoscaler',
      knob: 'rbac.serviceAccount.annotations',
    },
    {
      line:
        'F0118 16:56:05.471798       1 aws_cloud_provider.go:369] Failed to generate AWS EC2 Instance Types: UnauthorizedOperation: ' +
        'You are not authorized to perform this operation.',
      mechanism: 'cloud-permission-denied',
      variant: 'general',
      knob: 'the IAM policy of the role the pod runs as',
    },
  ],
  'a program missing on the node': [
    { line: LONGHORN, mechanism: 'node-package-missing', variant: 'iscsi', knob: 'package open-iscsi on node-1' },
    {
      line:
        'time="2023-06-09T09:19:33Z" level=fatal msg="Error starting manager: environment check failed: failed to execute: nsenter ' +
        '[--mount=/host/proc/19371/ns/mnt --net=/host/proc/19371/ns/net iscsiadm --version], output , stderr nsenter: failed to execute iscsiadm: ' +
        'No such file or directory\\n: exit status 127"',
      mechanism: 'node-package-missing',
      variant: 'iscsi',
      knob: 'spec.nodeSelector',
    },
  ],
  "calico-node's node address": [
    {
      line:
        '2020-09-16 10:27:19.076 [WARNING][10] startup.go 594: Unable to auto-detect an IPv4 address using interface regexes [eth.*|en.*|em.*]: ' +
        'no valid host interfaces found',
      mechanism: 'cni-node-address',
      variant: 'none-found',
      knob: 'env IP_AUTODETECTION_METHOD',
    },
    {
      line: "2018-01-22 07:16:35.054 [WARNING][9] startup.go 757: Calico node 'devops-master03' is already using the IPv4 address 172.18.0.1.",
      mechanism: 'cni-node-address',
      variant: 'duplicate-address',
      knob: 'nodeAddressAutodetectionV4',
      data: { address: '172.18.0.1' },
    },
  ],
  'a Service link read as an external-dns flag': [
    {
      line: EXTERNAL_DNS_LINK,
      mechanism: 'service-link-collision',
      variant: 'links-on',
      knob: 'spec.enableServiceLinks',
      data: { ip: '10.96.220.48', port: '7979' },
    },
    { line: EXTERNAL_DNS_LINK, mechanism: 'service-link-collision', variant: 'general', knob: 'env', spec: { enableServiceLinks: false } },
  ],
  'mount propagation on the node': [
    {
      line:
        'time="2022-12-21T09:15:20Z" level=fatal msg="Error deploying driver: CSI cannot be deployed because MountPropagation is not set: node ' +
        'node.example.com is not support mount propagation"',
      mechanism: 'mount-propagation',
      variant: 'node',
      knob: 'findmnt -o TARGET,PROPAGATION / on node.example.com',
      data: { target: 'node.example.com' },
    },
    {
      line:
        'time="2024-03-11T08:42:41Z" level=fatal msg="Error deploying driver: CSI cannot be deployed because MountPropagation is not set: node ' +
        'oci-autour.private.berangere.oraclevcn.com is not support mount propagation" func=app.DeployDriverCmd.func1 file="driver.go:141"',
      mechanism: 'mount-propagation',
      variant: 'node',
      knob: 'the longhorn-manager pod on oci-autour.private.berangere.oraclevcn.com',
    },
  ],
  "the node's kernel version": [
    {
      line: 'CRIT kernel version: NOT OK: minimal supported kernel version is >= 4.8',
      mechanism: 'node-kernel-too-old',
      variant: 'kernel',
      knob: 'the node image (kernel) of node-1',
      data: { want: '4.8', kernel: 'the kernel of node-1' },
    },
    {
      line: 'CRIT kernel version: NOT OK: minimal supported kernel version is >= 4.8',
      mechanism: 'node-kernel-too-old',
      variant: 'kernel',
      knob: 'spec.containers[app].image',
    },
  ],
  "the cert-manager webhook's CA Secret": [
    {
      line:
        'E0511 19:14:01.771928       1 dynamic_source.go:88] cert-manager/webhook "msg"="Failed to generate initial serving certificate, retrying..." ' +
        '"error"="failed verifying CA keypair: tls: failed to find any PEM data in certificate input"  "interval"=1000000000',
      mechanism: 'webhook-ca-secret',
      variant: 'empty',
      knob: 'Secret shop/<release>-webhook-ca',
    },
    {
      line:
        'E0817 07:48:07.388620       1 dynamic_source.go:86] cert-manager/webhook "msg"="Failed to generate initial serving certificate, retrying..." ' +
        '"error"="failed verifying CA keypair: tls: failed to find any PEM data in certificate input"  "interval"=1000000000',
      mechanism: 'webhook-ca-secret',
      variant: 'empty',
      knob: '--dynamic-serving-ca-secret-name',
    },
  ],
  "the node's BPF filesystem": [
    {
      line: 'level=fatal msg="Unable to mount BPF filesystem" error="multiple mount points detected at /sys/fs/bpf" subsys=bpf',
      mechanism: 'bpf-filesystem',
      variant: 'mount',
      knob: 'bpf.autoMount.enabled',
    },
    {
      line: 'level=fatal msg="Unable to mount BPF filesystem" error="multiple mount points detected at /sys/fs/bpf" subsys=bpf',
      mechanism: 'bpf-filesystem',
      variant: 'mount',
      knob: 'findmnt /sys/fs/bpf',
      spec: { hostNetwork: true },
    },
  ],
  'a backup bucket that is not there': [
    {
      line:
        'An error occurred: some backup storage locations are invalid: backup store for location "default" is invalid: rpc error: code = Unknown ' +
        'desc = NoSuchKey: ',
      mechanism: 'backup-bucket-missing',
      variant: 'velero',
      knob: 'spec.objectStorage.bucket',
    },
    {
      line: 'backup store for location "default" is invalid: rpc error: code = Unknown desc = NoSuchKey: ',
      mechanism: 'backup-bucket-missing',
      variant: 'velero',
      knob: 'spec.config.region',
    },
  ],
});

describe('add-on readings name the identity and the action', () => {
  it("quotes the node's kernel when the collector read the node", () => {
    const line = 'CRIT kernel version: NOT OK: minimal supported kernel version is >= 4.8';
    const node = { metadata: { name: 'node-1' }, status: { nodeInfo: { kernelVersion: '3.10.0-1127.el7.x86_64' } } };
    const r = readTexts([{ text: line, source: 'logs cilium-agent' }], { ...scopeOf(), node } as Parameters<typeof readTexts>[1]);
    expect(r?.explanation).toContain('kernel 3.10.0-1127.el7.x86_64 on node-1 is older than 4.8');
  });
  it("says the node's instance role was used, and which action it lacks", () => {
    const r = readTexts([{ text: AUTOSCALER_NODE_ROLE, source: 'logs cluster-autoscaler' }], scopeOf({}, { serviceAccountName: 'cluster-autoscaler' }));
    expect(r?.summary).toContain('autoscaling:DescribeTags');
    expect(r?.explanation).toContain('instance profile');
    expect(r?.knobs.join(' ')).toContain('ServiceAccount shop/cluster-autoscaler');
  });
  it('leaves the web identity refusal to cloud-identity-trust', () => {
    const line =
      '2021/02/24 18:21:12 ??? There was a problem monitoring for events error="WebIdentityErr: failed to retrieve credentials\\ncaused by: ' +
      'AccessDenied: Not authorized to perform sts:AssumeRoleWithWebIdentity\\n\\tstatus code: 403"';
    expect(readTexts([{ text: line, source: 'logs app' }], scopeOf())?.mechanism).toBe('cloud-identity-trust');
  });
  it("leaves the cert-manager webhook's start-up retries alone once it is Ready", () => {
    const line =
      'E0918 12:25:38.648354       1 dynamic_source.go:91] cert-manager/webhook "msg"="Failed to generate initial serving certificate, retrying..." ' +
      '"error"="failed verifying CA keypair: tls: failed to find any PEM data in certificate input"  "interval"=1000000000';
    const status = { name: 'app', ready: true, restartCount: 0, image: 'quay.io/jetstack/cert-manager-webhook:v1.5.3', imageID: '' };
    const ready = { ...scopeOf(), status } as Parameters<typeof readTexts>[1];
    expect(readTexts([{ text: line, source: 'logs cert-manager-webhook' }], ready)?.mechanism).not.toBe('webhook-ca-secret');
    expect(readTexts([{ text: line, source: 'logs cert-manager-webhook' }], { ...ready, status: { ...status, ready: false } })?.mechanism).toBe(
      'webhook-ca-secret',
    );
  });
  it('reads a reachable iSCSI target as no missing package', () => {
    const r = readTexts([{ text: 'iscsiadm: cannot make connection to 10.52.0.55: No route to host', source: 'logs app' }], scopeOf());
    expect(r?.mechanism).not.toBe('node-package-missing');
  });
});
