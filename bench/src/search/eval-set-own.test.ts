import { describeEvalSet } from './eval-set-checks';
import { readEvalSets } from './eval-set';

describeEvalSet(readEvalSets().find((entry) => entry.id === 'own')!);
