// Português do Brasil: notificações (os alertas do service worker, web/sw.js) e a ativação delas
// na tela do jogador e no celular do floor (push.js), as seções do diretor (sections.js).
//
// Lido de dois jeitos: i18n.js o importa como módulo e o service worker com importScripts
// (script clássico), por isso não exporta nada e põe os textos no objeto global.

// @ts-check
/** @type {any} */ (globalThis).floorPushTexts ||= {};
/** @type {any} */ (globalThis).floorPushTexts["pt-br"] = {
  "push.move_called.title": "Sua cadeira: mesa {table}, cadeira {seat}",
  "push.move_called.body": "{name}: o floor chamou a sua troca. Leve suas fichas para a mesa {table}, cadeira {seat}.",
  "push.move_called_again.title": "Nova cadeira: mesa {table}, cadeira {seat}",
  "push.move_called_again.body": "{name}: sua troca foi chamada de novo, para outra cadeira: mesa {table}, cadeira {seat}.",
  "push.table_breaking.title": "Sua mesa {table} vai quebrar",
  "push.table_breaking.body": "{name}: fique sentado até o floor chamar a sua nova cadeira.",
  "push.bag_time.title": "Ensaque suas fichas",
  "push.bag_time.body": "{name}: o dia terminou. Ensaque e identifique suas fichas na mesa {table}.",
  "push.payout_ready.title": "Seu prêmio está pronto",
  "push.payout_ready.body": "{name}: {place}º lugar, {prize}. Retire no caixa.",
  "push.in_the_money.title": "Você está na premiação",
  "push.in_the_money.body": {
    "one": "{name}: a bolha estourou. {n} posição é premiada, e é a sua.",
    "many": "{name}: a bolha estourou. {n} posições são premiadas, e você está nelas.",
    "other": "{name}: a bolha estourou. {n} posições são premiadas, e você está nelas.",
  },
  "push.seat_ready.title": "Sua cadeira está pronta",
  "push.seat_ready.body": "{name}: há uma cadeira pronta para você na mesa {table}, cadeira {seat}.",
  "push.staff.time_called.title": "Tempo pedido: mesa {table}",
  "push.staff.time_called.body": "A cadeira {seat} da mesa {table} tem um minuto para agir.",
  "push.staff.table_breaking.title": "Quebrar a mesa {table}",
  "push.staff.table_breaking.body": "A mesa {table} da sua seção está quebrando: chame as novas cadeiras dos jogadores dela.",

  "push.optin": "Alertar meu celular",
  "push.optin_hint": "Seu celular vibra quando o floor chama a sua troca, quando a sua mesa quebra, na hora de ensacar e quando o seu prêmio está pronto, mesmo com esta página fechada.",
  "push.on": "Os alertas no celular estão ligados",
  "push.stop": "Parar os alertas",
  "push.stopped": "Os alertas no celular estão desligados. Esta página ainda avisa você enquanto estiver aberta.",
  "push.denied": "As notificações estão bloqueadas para este site: permita-as nas configurações do navegador e tente de novo.",
  "push.unsupported": "Este navegador não consegue avisar com a página fechada: deixe esta página aberta para os alertas.",
  "push.ios": "No iPhone ou iPad: adicione esta página à Tela de Início (Compartilhar, Adicionar à Tela de Início; iOS 16.4 ou mais recente) e abra-a por lá para receber os alertas.",
  "push.no_server": "O servidor desta casa não envia alertas para celulares: deixe esta página aberta para os alertas.",
  "push.insecure": "Os alertas no celular precisam de uma conexão segura (https): deixe esta página aberta para os alertas.",
  "push.full": "Cinco celulares já recebem estes alertas: desligue-os primeiro em um deles.",
  "push.too_many": "Tentativas demais desta rede: tente de novo em um minuto.",
  "push.failed": "Não foi possível ligar os alertas: {error}",
  "push.staff_optin": "Alertas da minha seção",
  "push.staff_hint_section": "Os pedidos de tempo e as mesas a quebrar nas mesas {tables} chegam a este celular, mesmo bloqueado.",
  "push.staff_hint_all": "Você não tem seção definida: os pedidos de tempo e as quebras em todas as mesas que não são de mais ninguém chegam a este celular.",

  "director.floorsections": "Seções do floor",
  "sections.hint": "As mesas de que cada floor cuida: um pedido de tempo ou uma mesa a quebrar ali alerta o celular desse floor.",
  "sections.tables_of": "Mesas de {name}",
  "sections.placeholder": "ex.: 1-10, 15",
  "sections.save": "Salvar as seções",
  "sections.saved": "Seções salvas",
  "sections.bad": "Escreva números de mesa e intervalos, como 1-10, 15 ({name}).",
  "sections.none": "Ainda não há contas de floor.",
};
