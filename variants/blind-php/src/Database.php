<?php

declare(strict_types=1);

namespace Api;

use PDO;

/**
 * One PDO connection per request to the SQLite file shared by all Apache
 * children. The launcher creates the file in WAL mode; every connection waits
 * up to 10 s for a lock instead of failing with SQLITE_BUSY.
 */
final class Database
{
    private static ?PDO $connection = null;

    public static function connection(): PDO
    {
        if (self::$connection === null) {
            $pdo = new PDO('sqlite:' . Config::databasePath(), null, null, [
                PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
                PDO::ATTR_DEFAULT_FETCH_MODE => PDO::FETCH_ASSOC,
                PDO::ATTR_TIMEOUT => 10,
            ]);
            $pdo->exec('PRAGMA busy_timeout = 10000');
            $pdo->exec('PRAGMA synchronous = NORMAL');
            $pdo->exec('PRAGMA foreign_keys = ON');
            self::$connection = $pdo;
        }

        return self::$connection;
    }

    /**
     * Runs $work inside a write transaction. BEGIN IMMEDIATE takes the write
     * lock up front (waiting on busy_timeout), so a transaction never has to
     * upgrade a read lock, which SQLite could refuse at once under WAL.
     *
     * @template T
     * @param callable(PDO): T $work
     * @return T
     */
    public static function writeTransaction(callable $work): mixed
    {
        $pdo = self::connection();
        $pdo->exec('BEGIN IMMEDIATE');
        try {
            $result = $work($pdo);
            $pdo->exec('COMMIT');

            return $result;
        } catch (\Throwable $e) {
            $pdo->exec('ROLLBACK');
            throw $e;
        }
    }

    /**
     * Runs $work inside a read transaction, so that several SELECTs (a count
     * and a page, say) see one snapshot.
     *
     * @template T
     * @param callable(PDO): T $work
     * @return T
     */
    public static function readTransaction(callable $work): mixed
    {
        $pdo = self::connection();
        $pdo->beginTransaction();
        try {
            $result = $work($pdo);
            $pdo->commit();

            return $result;
        } catch (\Throwable $e) {
            $pdo->rollBack();
            throw $e;
        }
    }
}
