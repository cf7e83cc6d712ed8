<?php
declare(strict_types=1);

namespace App\Entity;

use Doctrine\ORM\Mapping as ORM;

/**
 * A registered user.
 *
 * Persisted by Doctrine; see config/services.yaml.
 */
#[ORM\Entity]
#[ORM\Table(name: 'users')]
class User
{
    private ?string $name = null;

    // ...
}
