// Cluster add-ons whose own pods crash or stay unready, as their logs say it: a controller whose cloud identity
// works but lacks an action (external-dns, cluster-autoscaler), a storage manager missing a package on the node
// or mount propagation (Longhorn), Calico picking no (or a shared) node address, Cilium's BPF filesystem and
// kernel check, a backup bucket that is not there (Velero), the cert-manager webhook's CA Secret, external-dns
// reading a Service link as a flag. Lines other catalogues already read (RBAC refusals, CRDs not served, the cloud
// SDK finding no credentials, TLS) stay theirs, and so do lines a rule names: the CSI driver registration
// (volume-mount-failed), ingress-nginx's "port 80 is already in use" (crash-port-in-use).
import { data, mechanisms, re, signatures } from '../define.js';
import type { ReadingContext } from '../types.js';

/** The node's instance role shows as `assumed-role/<role>/i-0123...`: the SDK fell back to the instance profile. */
const INSTANCE_SESSION = /assumed-role\/[^/\s]+\/i-[0-9a-f]{6,}/;

/** What the refusal names: the action and the identity the cloud saw. */
function refused(ctx: ReadingContext) {
  return data({ action: ctx.groups.action ?? 'the API action', principal: ctx.groups.principal ?? 'the identity the pod presented' });
}

export const MECHANISMS = mechanisms([
  {
    id: 'cloud-permission-denied',
    kind: 'permission',
    resource: "an action in the IAM policy of the add-on's cloud identity",
    doc:
      'The cloud accepted who the pod is and refused what it asked: the IAM policy of the role the pod runs as does not allow the action ' +
      "(route53:ListHostedZones for external-dns, autoscaling:DescribeTags for cluster-autoscaler). Often the role is the node's instance role, " +
      'because the pod got no role of its own.',
    variants: [
      {
        id: 'node-instance-role',
        when: (ctx) => INSTANCE_SESSION.test(ctx.line) && refused(ctx),
        summary: "the node's instance role may not {{action}}: the pod has no cloud role of its own",
        explain:
          "The cloud refused {{action}} to {{principal}}, a session of the node's instance role: the add-on found no web identity env " +
          '(AWS_ROLE_ARN, AWS_WEB_IDENTITY_TOKEN_FILE) and fell back to the instance profile, which is not meant to hold its permissions. ' +
          'Its ServiceAccount {{serviceAccount}} carries no role annotation, or the pod identity webhook did not run when the pod was created.',
        knobs: [
          {
            place: 'cluster',
            path: 'ServiceAccount {{namespace}}/{{serviceAccount}} metadata.annotations[eks.amazonaws.com/role-arn]',
            change: "annotate it with a role that allows {{action}} (the chart's serviceAccount.annotations), then recreate the pods",
          },
          { place: 'node', path: "the instance role of {{node}}'s node group", change: 'or, less narrowly, add {{action}} to the node role' },
        ],
      },
      {
        id: 'external-dns',
        when: (ctx) => /route53:/i.test(ctx.groups.action ?? '') && refused(ctx),
        summary: 'the role of external-dns may not {{action}}',
        explain:
          'The role external-dns runs as ({{principal}}) reached Route 53 and was refused {{action}}: its IAM policy lacks that action, or scopes it ' +
          'to other hosted zones. external-dns lists every hosted zone before filtering them, so route53:ListHostedZones must be allowed on "*".',
        knobs: [
          {
            place: 'cluster',
            path: 'the IAM policy of the role in eks.amazonaws.com/role-arn',
            change: 'allow route53:ListHostedZones and route53:ListResourceRecordSets on "*", route53:ChangeResourceRecordSets on the zones it manages',
          },
          { place: 'app', path: 'external-dns --domain-filter / --zone-id-filter (chart domainFilters)', change: 'limit it to the zones the role may change' },
        ],
      },
      {
        id: 'cluster-autoscaler',
        when: (ctx) => /^(?:autoscaling|ec2):/i.test(ctx.groups.action ?? '') && refused(ctx),
        summary: 'the role of cluster-autoscaler may not {{action}}',
        explain:
          'The role cluster-autoscaler runs as ({{principal}}) was refused {{action}}: its IAM policy lacks one of the actions it needs to discover ' +
          'and resize node groups (autoscaling:DescribeAutoScalingGroups, DescribeTags for tag auto-discovery, SetDesiredCapacity, ' +
          'DescribeScalingActivities since 1.24, ec2:DescribeInstanceTypes and DescribeLaunchTemplateVersions).',
        knobs: [
          {
            place: 'cluster',
            path: 'the IAM policy of the role in eks.amazonaws.com/role-arn (chart rbac.serviceAccount.annotations)',
            change: "add {{action}} (the autoscaler's documented AWS policy)",
          },
        ],
      },
      {
        id: 'named-action',
        when: (ctx) => ctx.groups.action !== undefined && refused(ctx),
        summary: "the cloud refuses {{action}} to the pod's role",
        explain: "The cloud accepted the pod's identity ({{principal}}) and refused {{action}}: no statement of its IAM policy allows it on that resource.",
        knobs: [
          { place: 'cluster', path: 'the IAM policy of the role the pod runs as', change: 'allow {{action}} on the resource it names' },
          { place: 'cluster', path: 'ServiceAccount {{namespace}}/{{serviceAccount}} annotations', change: 'check it names the role that was edited' },
        ],
      },
      {
        id: 'general',
        summary: "the cloud refuses an API call to the pod's role",
        explain:
          "The cloud accepted the pod's identity and refused the call (EC2 UnauthorizedOperation names no action): the IAM policy of the role " +
          'lacks an action the add-on needs (cluster-autoscaler: ec2:DescribeInstanceTypes, ec2:DescribeLaunchTemplateVersions).',
        knobs: [
          {
            place: 'cluster',
            path: 'the IAM policy of the role the pod runs as',
            change: "compare it with the add-on's documented policy and add what is missing",
          },
          { place: 'cluster', path: 'ServiceAccount {{namespace}}/{{serviceAccount}} annotations', change: 'check it names the role that was edited' },
        ],
      },
    ],
  },
  {
    id: 'node-package-missing',
    kind: 'dependency',
    resource: 'a program the add-on runs on the node itself',
    doc:
      "The add-on enters the node's mount namespace (nsenter into the host's PID 1) to run a node program, and the node does not have it: " +
      "Longhorn's manager checks for iscsiadm (open-iscsi) at start and exits without it.",
    variants: [
      {
        id: 'iscsi',
        when: (ctx) => /iscsi/i.test(ctx.line),
        summary: '{{node}} has no iscsiadm: open-iscsi is not installed on the node',
        explain:
          "The storage manager runs iscsiadm on the node itself, through nsenter into the host's mount namespace, to attach volumes as iSCSI devices, " +
          'and {{node}} does not have it: the node image lacks the open-iscsi package (iscsi-initiator-utils on RHEL-like systems), ' +
          'so the manager fails its environment check and exits.',
        knobs: [
          {
            place: 'node',
            path: 'package open-iscsi on {{node}} (iscsi-initiator-utils on RHEL-like images), with iscsid enabled',
            change: 'install it in the node image or its user data (Longhorn ships a longhorn-iscsi-installation DaemonSet for it)',
          },
          { place: 'pod', path: 'spec.nodeSelector', change: 'or keep the storage pods off nodes whose image cannot have it (container-optimised OSes)' },
        ],
      },
      {
        id: 'package',
        summary: '{{node}} lacks a program the add-on runs on the host',
        explain: "The add-on runs a program on the node through nsenter, and {{node}}'s image does not have it.",
        knobs: [{ place: 'node', path: 'the node image of {{node}}', change: "install the package the add-on's prerequisites name" }],
      },
    ],
  },
  {
    id: 'cni-node-address',
    kind: 'setting',
    resource: 'the node address the CNI agent routes between nodes with',
    doc:
      "calico-node picks the node's IPv4 address for BGP and tunnels at start, by its autodetection method, and stops when the method finds none " +
      'or finds one another node already claims (a docker0 or other bridge address every node has).',
    variants: [
      {
        id: 'duplicate-address',
        when: (ctx) => /already using the IPv4 address/i.test(ctx.line) && data({ address: ctx.groups.address ?? 'the address it detected' }),
        summary: 'calico-node on {{node}} picked {{address}}, which another node already uses',
        explain:
          'The autodetection method chose {{address}} for {{node}}, and another Calico node already registered it: the first-found method took an ' +
          "interface every node has with the same address (docker0, a bridge, a NodeLocal DNS or VPN interface) instead of the node's own NIC.",
        knobs: [
          {
            place: 'pod',
            path: 'env IP_AUTODETECTION_METHOD of the calico-node DaemonSet (operator: Installation spec.calicoNetwork.nodeAddressAutodetectionV4)',
            change: 'pick the node NIC: interface=<regex>, can-reach=<peer IP>, kubernetes-internal-ip or cidrs=<node subnet>',
          },
        ],
      },
      {
        id: 'none-found',
        summary: 'calico-node finds no IPv4 address for {{node}} with its autodetection method',
        explain:
          "calico-node needs the node's IPv4 address to route to other nodes, and its autodetection method found none on {{node}}: an interface " +
          "regex that matches none of the node's NICs (names differ between images: eth0, ens5, enp0s3, bond0), or a can-reach target the node " +
          'has no IPv4 route to; so calico-node exits and the node has no pod network.',
        knobs: [
          {
            place: 'pod',
            path: 'env IP_AUTODETECTION_METHOD of the calico-node DaemonSet (operator: Installation spec.calicoNetwork.nodeAddressAutodetectionV4)',
            change: "set a method that matches {{node}}'s NIC (interface=<regex>, kubernetes-internal-ip, cidrs=<node subnet>)",
          },
          {
            place: 'pod',
            path: 'env IP of the calico-node DaemonSet',
            change: 'or leave it autodetect only where the method works; an explicit address is per node',
          },
        ],
      },
    ],
  },
  {
    id: 'mount-propagation',
    kind: 'setting',
    resource: "shared mount propagation on the node's root",
    doc:
      "A CSI driver's node plugin mounts volumes inside its container and needs them seen by the kubelet and other pods: mountPropagation " +
      "Bidirectional, which works only when the node's root filesystem is a shared mount. Longhorn's driver deployer checks each node and stops " +
      'when one does not support it.',
    variants: [
      {
        id: 'node',
        when: (ctx) => data({ target: ctx.groups.target ?? ctx.pod?.spec?.nodeName ?? 'a node' }),
        summary: 'the CSI driver cannot be deployed: {{target}} does not support mount propagation',
        explain:
          "The deployer asked the storage manager on {{target}} whether a Bidirectional mount there reaches the host, and it does not: the node's " +
          'root (/) or the storage directory is a private or slave mount (a container engine started with MountFlags=slave, a node image that ' +
          'mounts / private), or the manager on that node is not running to answer, so the CSI plugin is not deployed anywhere.',
        knobs: [
          {
            place: 'node',
            path: 'findmnt -o TARGET,PROPAGATION / on {{target}}',
            change: "make it shared (mount --make-rshared /, or MountFlags=shared in the container engine's systemd unit) and restart the manager",
          },
          { place: 'cluster', path: 'the longhorn-manager pod on {{target}}', change: 'check it is running and Ready: the check runs through it' },
        ],
      },
    ],
  },
  {
    id: 'node-kernel-too-old',
    kind: 'dependency',
    resource: "a kernel version on the node the CNI's eBPF datapath needs",
    doc:
      "The CNI agent loads eBPF programs into the node's kernel and checks the kernel version first: on a kernel older than it supports it " +
      'exits, and the node has no pod network.',
    variants: [
      {
        id: 'kernel',
        when: (ctx) => {
          const kernel = ctx.node?.status?.nodeInfo?.kernelVersion ?? ctx.snapshot?.node?.status?.nodeInfo?.kernelVersion;
          const node = ctx.pod?.spec?.nodeName ?? ctx.node?.metadata?.name ?? 'the node';
          return data({ want: ctx.groups.want, kernel: kernel ? `kernel ${kernel} on ${node}` : `the kernel of ${node}` });
        },
        summary: "{{node}}'s kernel is older than the agent supports (it needs {{want}} or later)",
        explain:
          'The agent checks the running kernel before it loads its eBPF datapath, and {{kernel}} is older than {{want}}, the oldest it supports: ' +
          'the node image predates the agent release (an old enterprise kernel such as 3.10 on CentOS 7).',
        knobs: [
          { place: 'node', path: 'the node image (kernel) of {{node}}', change: 'move the node to an image whose kernel is {{want}} or later' },
          { place: 'image', path: '{{containerPath}}.image', change: 'or run an agent release whose system requirements include this kernel' },
        ],
      },
    ],
  },
  {
    id: 'webhook-ca-secret',
    kind: 'setting',
    resource: 'the CA Secret the cert-manager webhook signs its serving certificate with',
    doc:
      'The cert-manager webhook makes its own serving certificate from a CA it keeps in a Secret (<release>-webhook-ca) and reports ready only ' +
      'once it has one. While that Secret holds no PEM certificate it retries every second; for a few seconds after install that is normal, ' +
      'for longer the Secret was created or emptied by something else, so the webhook stays unready and every cert-manager resource is refused.',
    variants: [
      {
        id: 'empty',
        summary: "the cert-manager webhook's CA Secret holds no certificate",
        explain:
          'The webhook reads its CA from the Secret named by --dynamic-serving-ca-secret-name (<release>-webhook-ca in {{namespace}}) and finds no ' +
          'PEM data in it: a GitOps tool or a chart template created it empty (or prunes what the webhook writes), or a restored backup brought ' +
          'back an empty Secret. The webhook only fills a Secret it finds missing or whose data it can parse.',
        knobs: [
          {
            place: 'cluster',
            path: 'Secret {{namespace}}/<release>-webhook-ca',
            change: 'delete it and let the webhook recreate it; keep it out of GitOps pruning (Argo CD: ignore its data)',
          },
          { place: 'pod', path: '{{containerPath}}.args --dynamic-serving-ca-secret-name', change: 'check it names the Secret the webhook may write' },
        ],
      },
    ],
  },
  {
    id: 'bpf-filesystem',
    kind: 'setting',
    resource: "the node's BPF filesystem at /sys/fs/bpf",
    doc:
      "The CNI agent pins its eBPF maps in the node's BPF filesystem and cannot set it up: /sys/fs/bpf is mounted more than once, or not " +
      'shared with the container, so the agent exits.',
    variants: [
      {
        id: 'mount',
        summary: "the agent cannot use the node's BPF filesystem at /sys/fs/bpf",
        explain:
          'The agent mounts or checks the BPF filesystem at /sys/fs/bpf and finds it unusable on {{node}}: stacked mounts of bpffs at that path ' +
          '(the host mounted it and so did an earlier agent or a manual step), or a mount the container does not share with the host.',
        knobs: [
          {
            place: 'node',
            path: 'mounts of /sys/fs/bpf on {{node}} (findmnt /sys/fs/bpf)',
            change: 'leave exactly one bpffs mount there (a systemd sys-fs-bpf.mount)',
          },
          {
            place: 'pod',
            path: 'the bpf-maps hostPath volume of /sys/fs/bpf, mountPropagation Bidirectional (Cilium chart bpf.autoMount.enabled)',
            change: 'let the chart mount it from the host, or turn autoMount off when the node mounts it itself',
          },
        ],
      },
    ],
  },
  {
    id: 'backup-bucket-missing',
    kind: 'setting',
    resource: 'the object storage bucket a backup location names',
    doc:
      'The backup server validates its BackupStorageLocation by listing the bucket, and the object store answers that it does not exist: ' +
      'the bucket was never created, its name carries a prefix (bucket/prefix), or the location points at another region or endpoint.',
    variants: [
      {
        id: 'velero',
        summary: 'the bucket of the backup storage location does not exist at the configured endpoint',
        explain:
          'Velero asked the object store for the bucket of its backup storage location and got "no such bucket" (404): velero install does not ' +
          'create buckets; the name may include a path, which belongs in prefix; or the region or s3Url sends the request to another store.',
        knobs: [
          {
            place: 'cluster',
            path: 'BackupStorageLocation spec.objectStorage.bucket and .prefix (chart configuration.backupStorageLocation[].bucket)',
            change: 'name an existing bucket, without a path (put the path in prefix)',
          },
          {
            place: 'cluster',
            path: 'BackupStorageLocation spec.config.region / s3Url',
            change: "point it at the bucket's region and endpoint (create the bucket there first)",
          },
        ],
      },
    ],
  },
]);

export const SIGNATURES = signatures([
  {
    id: 'addon.aws-action-denied',
    // The cloud's own refusal: weighed as a server's sentence, above the errno texts on the same line.
    family: 'server',
    mechanism: 'cloud-permission-denied',
    needles: ['is not authorized to perform:', 'you are not authorized to perform this operation'],
    patterns: [
      re('User: (?<principal>arn:aws:[\\w-]+::[\\w*{}-]*:[^\\s"]+)\\s+is not authorized to perform: (?<action>[\\w-]+:\\w+)'),
      re('is not authorized to perform: (?<action>[\\w-]+:\\w+)'),
      re('UnauthorizedOperation: You are not authorized to perform this operation'),
    ],
    // The token exchange itself is cloud-identity-trust's (identity.ts).
    unless: /AssumeRoleWithWebIdentity/i,
    source:
      'AWS IAM AccessDenied ("User: <arn> is not authorized to perform: <action>") and EC2 UnauthorizedOperation as aws-sdk-go prints them. ' +
      'Lines (GitHub): kubernetes-sigs/external-dns#4219, #1222, #439; kubernetes/kops#1573; awsdocs/amazon-eks-user-guide#104; ' +
      'kubernetes/autoscaler#4625',
    examples: [
      'time="2024-01-28T09:41:17Z" level=error msg="records retrieval failed: failed to list hosted zones: AccessDenied: User: ' +
        'arn:aws:sts::xxxxxxxxxxxxxx:assumed-role/*****-ExternalDNS/1385464348772260040 is not authorized to perform: route53:ListHostedZones ' +
        'because no identity-based policy allows the route53:ListHostedZones action\\n\\tstatus code: 403, request id: b950a1aa-6e02-4ead-92a7-6a945e5f8ce4"',
      'I0120 16:59:30.376198       1 aws_manager.go:194] Failed ASG info request for nodes.domain.net: AccessDenied: User: ' +
        'arn:aws:sts::9029999997:assumed-role/nodes.domain.net/i-03101bf33ee2702bb is not authorized to perform: autoscaling:DescribeAutoScalingGroups',
      'F0322 18:48:28.218626       1 aws_cloud_provider.go:351] Failed to create AWS Manager: cannot autodiscover ASGs: AccessDenied: User: ' +
        'arn:aws:sts::849616654863:assumed-role/eksctl-gara-int-cluster-nodegroup-NodeInstanceRole-19QKQO25WZ3M9/i-0ee6bc34b33c65e12 is not authorized ' +
        'to perform: autoscaling:DescribeTags',
      'F0118 16:56:05.471798       1 aws_cloud_provider.go:369] Failed to generate AWS EC2 Instance Types: UnauthorizedOperation: You are not authorized ' +
        'to perform this operation.',
    ],
  },
  {
    id: 'addon.longhorn-iscsiadm-missing',
    family: 'server',
    mechanism: 'node-package-missing',
    needles: ['iscsiadm'],
    patterns: [re('please make sure you have iscsiadm/open-iscsi installed on the host'), re('failed to execute iscsiadm: No such file or directory')],
    source:
      'longhorn-manager environment check (nsenter into the host to run iscsiadm --version). Lines (GitHub): longhorn/longhorn#4258, ' +
      'aws-samples/rancher-on-aws-workshop#23, longhorn/longhorn#31; near miss longhorn/longhorn#12549 (iscsiadm present, target unreachable)',
    examples: [
      'time="2023-02-14T03:46:02Z" level=error msg="Failed environment check, please make sure you have iscsiadm/open-iscsi installed on the host"',
      'time="2023-06-09T09:19:33Z" level=fatal msg="Error starting manager: environment check failed: failed to execute: nsenter ' +
        '[--mount=/host/proc/19371/ns/mnt --net=/host/proc/19371/ns/net iscsiadm --version], output , stderr nsenter: failed to execute iscsiadm: ' +
        'No such file or directory\\n: exit status 127"',
    ],
    nearMisses: ['iscsiadm: cannot make connection to 10.52.0.55: No route to host'],
  },
  {
    id: 'addon.calico-ip-autodetect',
    family: 'server',
    mechanism: 'cni-node-address',
    needles: ['auto-detect', 'autodetect', 'is already using the ipv4 address'],
    patterns: [
      re('Unable to auto-detect an IPv4 address using interface regexes'),
      re('Unable to auto-detect IPv4 address by connecting to'),
      re("Couldn't autodetect an IPv4 address\\. If auto-detecting, choose a different autodetection method"),
      re("Calico node '[^']+' is already using the IPv4 address (?<address>\\d+(?:\\.\\d+){3})"),
    ],
    source:
      'calico node pkg/startup (autodetection_methods.go, startup.go: "Couldn\'t autodetect an IPv4 address", "is already using the IPv4 address"). ' +
      'Lines (GitHub): projectcalico/calico#2965, #2166, #1628, canonical/microk8s#3804; near miss projectcalico/calico#6910',
    examples: [
      '2020-09-16 10:27:19.076 [WARNING][10] startup.go 594: Unable to auto-detect an IPv4 address using interface regexes [eth.*|en.*|em.*]: ' +
        'no valid host interfaces found',
      "2020-09-16 10:27:19.076 [WARNING][10] startup.go 404: Couldn't autodetect an IPv4 address. If auto-detecting, choose a different " +
        'autodetection method. Otherwise provide an explicit address.',
      "2018-01-22 07:16:35.054 [WARNING][9] startup.go 757: Calico node 'devops-master03' is already using the IPv4 address 172.18.0.1.",
      '[WARNING][9] startup/autodetection_methods.go 140: Unable to auto-detect IPv4 address by connecting to 2a01:4f8:242:3ce9::2: dial udp4: ' +
        'address 2a01:4f8:242:3ce9::2: no suitable address found',
    ],
    nearMisses: [
      'calico-node-zfq9d calico-node 2022-10-27 08:17:56.235 [INFO][11] startup/autodetection_methods.go 103: Using autodetected IPv4 address on ' +
        'interface ens5: 10.215.101.177/24',
    ],
  },
  {
    id: 'addon.external-dns-service-link',
    // external-dns reads every flag from an EXTERNAL_DNS_<FLAG> variable too, so a Service named external-dns feeds it link variables.
    family: 'server',
    mechanism: 'service-link-collision',
    needles: ['flag parsing error'],
    patterns: [re('flag parsing error: strconv\\.Parse\\w+: parsing \\\\?"tcp://(?<ip>\\d{1,3}(?:\\.\\d{1,3}){3}):(?<port>\\d{1,5})\\\\?": invalid syntax')],
    source:
      'external-dns pkg/apis/externaldns/types.go (kingpin flags with DefaultEnvars: EXTERNAL_DNS_<FLAG>, "flag parsing error: %v"); kubelet service ' +
      'environment variables (<SERVICE>_PORT=tcp://...). Lines (GitHub): kubernetes-sigs/external-dns#3250; near miss openshift/hypershift#3408',
    examples: ['time="2022-12-16T22:07:25Z" level=fatal msg="flag parsing error: strconv.ParseFloat: parsing \\"tcp://10.96.220.48:7979\\": invalid syntax"'],
    nearMisses: ['time="2024-01-11T12:34:55Z" level=fatal msg="flag parsing error: flag \'aws-zone-type\' cannot be repeated"'],
  },
  {
    id: 'addon.longhorn-mount-propagation',
    family: 'server',
    mechanism: 'mount-propagation',
    needles: ['mountpropagation is not set'],
    patterns: [re('CSI cannot be deployed because MountPropagation is not set: node (?<target>[\\w.-]+) is not support mount propagation')],
    source:
      'longhorn-manager app/driver.go (deployDriver: "CSI cannot be deployed because MountPropagation is not set"). Lines (GitHub): ' +
      'longhorn/longhorn#5194, #8148, #6399',
    examples: [
      'time="2022-12-21T09:15:20Z" level=fatal msg="Error deploying driver: CSI cannot be deployed because MountPropagation is not set: node ' +
        'node.example.com is not support mount propagation"',
      'time="2024-03-11T08:42:41Z" level=fatal msg="Error deploying driver: CSI cannot be deployed because MountPropagation is not set: node ' +
        'oci-autour.private.berangere.oraclevcn.com is not support mount propagation" func=app.DeployDriverCmd.func1 file="driver.go:141"',
    ],
  },
  {
    id: 'addon.cilium-kernel-version',
    family: 'server',
    mechanism: 'node-kernel-too-old',
    needles: ['kernel version: not ok'],
    patterns: [re('kernel version: NOT OK: minimal supported kernel version is >= (?<want>\\d+\\.\\d+(?:\\.\\d+)?)')],
    source:
      'cilium daemon kernel check ("kernel version: NOT OK: minimal supported kernel version is >= %d.%d"), quoted in cilium/cilium#603; ' +
      'system requirements in cilium Documentation/operations/system_requirements.rst; rancher/rke2#3571 (CentOS 7 kernel 3.10)',
    examples: ['CRIT kernel version: NOT OK: minimal supported kernel version is >= 4.8'],
  },
  {
    id: 'addon.cert-manager-webhook-ca',
    family: 'server',
    mechanism: 'webhook-ca-secret',
    needles: ['failed verifying ca keypair'],
    patterns: [re('Failed to generate initial serving certificate, retrying[\\s\\S]{0,40}failed verifying CA keypair: tls: failed to find any PEM data')],
    // Logged for a few seconds after every fresh install: it means something only while the webhook is not Ready.
    applies: (ctx) => ctx.status?.ready !== true,
    source:
      'cert-manager pkg/webhook/server/tls/dynamic_source.go ("Failed to generate initial serving certificate, retrying...") with Go crypto/tls ' +
      '("tls: failed to find any PEM data in certificate input"). Lines (GitHub): cert-manager/cert-manager#3991, #3185, #4467, #4729',
    examples: [
      'E0511 19:14:01.771928       1 dynamic_source.go:88] cert-manager/webhook "msg"="Failed to generate initial serving certificate, retrying..." ' +
        '"error"="failed verifying CA keypair: tls: failed to find any PEM data in certificate input"  "interval"=1000000000',
      'E0918 12:25:38.648354       1 dynamic_source.go:91] cert-manager/webhook "msg"="Failed to generate initial serving certificate, retrying..." ' +
        '"error"="failed verifying CA keypair: tls: failed to find any PEM data in certificate input"  "interval"=1000000000',
    ],
  },
  {
    id: 'addon.cilium-bpffs',
    family: 'server',
    mechanism: 'bpf-filesystem',
    needles: ['bpf filesystem'],
    patterns: [re('Unable to mount BPF filesystem')],
    source:
      'cilium-agent pkg/bpf bpffs mount check ("Unable to mount BPF filesystem"). Lines (GitHub): cilium/cilium#6966; near misses ' +
      'cilium/cilium#28755 (the auto-mount warning of a healthy agent)',
    examples: ['level=fatal msg="Unable to mount BPF filesystem" error="multiple mount points detected at /sys/fs/bpf" subsys=bpf'],
    nearMisses: [
      'level=warning msg="BPF filesystem is not mounted. This will lead to network disruption when Cilium pods" subsys=bpf',
      'level=info msg="Mounting BPF filesystem at /sys/fs/bpf" subsys=bpf',
    ],
  },
  {
    id: 'addon.velero-bucket-missing',
    family: 'server',
    mechanism: 'backup-bucket-missing',
    needles: ['nosuchbucket', 'nosuchkey'],
    patterns: [re('backup store for location \\\\?"[\\w.-]+\\\\?" is invalid: rpc error: code = Unknown desc = NoSuch(?:Key|Bucket)')],
    source:
      'velero pkg/cmd/server/server.go ("backup store for location %q is invalid") with the S3 404 the AWS plugin relays. Lines (GitHub): ' +
      'velero-io/velero#1618 (NoSuchKey: the bucket did not exist, as the maintainers answered)',
    examples: [
      'An error occurred: some backup storage locations are invalid: backup store for location "default" is invalid: rpc error: code = Unknown ' +
        'desc = NoSuchKey: ',
    ],
  },
]);
