import { Box, Group, Image, Stack, Text, Title } from "@mantine/core";
import { promoSlides } from "./promo-slides";

/** The promotional slides; `index` comes from useGenerationCard, which advances it every 5 s. */
export function PromoCarousel({ index }: { index: number }) {
  const slide = promoSlides[index % promoSlides.length] ?? promoSlides[0];
  return (
    <Stack
      gap="sm"
      role="region"
      aria-roledescription="carousel"
      aria-label="Why Cloud Console"
      data-testid="promo-carousel"
    >
      <Group wrap="nowrap" gap="lg" align="center" aria-live="polite">
        <Image src={slide.image} alt="" w={240} h={135} radius="md" />
        <Stack gap={4}>
          <Title order={3} size="h4" data-testid="promo-slide-title">
            {slide.title}
          </Title>
          <Text c="dimmed">{slide.text}</Text>
        </Stack>
      </Group>
      <Group gap={6} justify="center" aria-hidden="true">
        {promoSlides.map((item, position) => (
          <Box
            key={item.title}
            w={8}
            h={8}
            bg={position === index % promoSlides.length ? "purple" : "gray.3"}
            style={{ borderRadius: "50%" }}
          />
        ))}
      </Group>
    </Stack>
  );
}
