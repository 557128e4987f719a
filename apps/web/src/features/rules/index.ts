// What other features and app/ may use of this feature (design §10.10).
export { AttackMatrix, AttackMatrixCell } from './components/AttackMatrix.tsx';
export type { AttackMatrixTechnique } from './components/AttackMatrix.tsx';
export { RuleNamePopover } from './components/RuleNamePopover.tsx';
