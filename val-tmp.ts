import { validatePlaybookDir, formatIssue } from './src/remediation/load.js';
const r = await validatePlaybookDir(process.argv[2] ?? '/work/main/playbooks');
console.log(r.playbooks.map(p=>p.playbook.id).join(' '), r.issues.map(formatIssue));
