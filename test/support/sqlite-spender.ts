/**
 * A separate process spending credit from a shared SQLite file, for the two-process tests:
 *   node sqlite-spender.js <file> <attempts>
 * Waits for the start signal (a line on stdin) so that both processes race, then tries to spend
 * one unit per attempt and prints the number of attempts that were granted.
 */
import { openSqlite, writeTransaction } from '../../core/store/sqlite/database';
import { CREDIT_MIGRATIONS } from './sqlite-credit-schema';

const [file, attempts] = process.argv.slice(2);
const db = openSqlite(file, CREDIT_MIGRATIONS);
const spend = writeTransaction(db, () => {
  const row = db.prepare('SELECT balance FROM credit WHERE id = 1').get() as { balance: number };
  if (row.balance <= 0) return false;
  db.prepare('UPDATE credit SET balance = balance - 1 WHERE id = 1').run();
  db.prepare('INSERT INTO spent (pid) VALUES (?)').run(process.pid);
  return true;
});

process.stdin.once('data', () => {
  let granted = 0;
  for (let i = 0; i < Number(attempts); i++) if (spend()) granted++;
  db.close();
  process.stdout.write(`${granted}\n`);
  process.exit(0);
});
process.stdout.write('ready\n');
