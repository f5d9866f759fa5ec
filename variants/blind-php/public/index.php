<?php

declare(strict_types=1);

/*
 * Front controller: Apache's mod_rewrite sends every request here
 * (see the <Directory> block that serve.py writes into apache2.conf).
 */

require dirname(__DIR__) . '/src/bootstrap.php';

(new Api\App())->run();
