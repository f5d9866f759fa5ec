<?php

declare(strict_types=1);

/*
 * Bootstrap shared by the front controller: a PSR-4 style autoloader for the
 * Api\ namespace, strict error handling, and a last-resort JSON answer for
 * fatal errors (mod_php would otherwise send an empty 500).
 */

spl_autoload_register(static function (string $class): void {
    $prefix = 'Api\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});

// Warnings and notices are bugs: turn them into exceptions so that the
// front controller answers them with a proper api_error envelope.
set_error_handler(static function (int $severity, string $message, string $file, int $line): bool {
    if ((error_reporting() & $severity) === 0) {
        return false;
    }
    throw new ErrorException($message, 0, $severity, $file, $line);
});

register_shutdown_function(static function (): void {
    $error = error_get_last();
    $fatal = E_ERROR | E_PARSE | E_CORE_ERROR | E_COMPILE_ERROR | E_USER_ERROR;
    if ($error === null || ($error['type'] & $fatal) === 0 || headers_sent()) {
        return;
    }
    while (ob_get_level() > 0) {
        ob_end_clean();
    }
    \Api\Http\Response::error(\Api\Http\ApiError::internal());
});
